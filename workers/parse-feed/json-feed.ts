import type { Author, Enclosure, ParsedFeed, ParsedItem } from '../../src/domain/item.js';
import { FeedmillError } from '../../src/domain/errors.js';
import { finishItem, inheritAuthors, newDraft } from './item-draft.js';
import { webUrl } from '../shared/urls.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/** JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1). */
export function readJsonFeed(text: string, documentUrl: string | undefined): ParsedFeed {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new FeedmillError(
      'not_a_feed',
      `Expected a feed, got a document that starts with "{" but is not valid JSON (${(error as Error).message}); check that the URL points at an RSS, Atom or JSON Feed`,
    );
  }
  if (!isObject(document) || !isJsonFeedVersion(document)) {
    throw new FeedmillError(
      'not_a_feed',
      'Expected a JSON Feed (an object whose "version" is "https://jsonfeed.org/version/1.1"), got other JSON; check that the URL points at a feed',
    );
  }
  const base = documentUrl || undefined;
  const link = webUrl(str(document['home_page_url']), base);
  const items = Array.isArray(document['items']) ? document['items'].filter(isObject) : [];
  const feed: ParsedFeed = {
    title: str(document['title']),
    description: str(document['description']),
    link,
    icon: webUrl(str(document['icon']), base) || webUrl(str(document['favicon']), base),
    items: items.map((item) => readItem(item, base)),
  };
  inheritAuthors(feed.items, authors(document));
  return feed;
}

/** The spec's version URL; gofeed also accepts a bare "1.0"/"1.1", and a versionless object with an items array. */
function isJsonFeedVersion(document: Json): boolean {
  const version = str(document['version']);
  if (version === '') return Array.isArray(document['items']);
  return version.includes('jsonfeed.org/version/') || /^1(?:\.\d+)?$/.test(version);
}

function readItem(item: Json, base: string | undefined): ParsedItem {
  const draft = newDraft(base);
  const id = str(item['id']);
  if (id !== '') draft.id = id;
  // `external_url` names the page an item is about when the item has no page of its own.
  draft.url = webUrl(str(item['url']), base) || webUrl(str(item['external_url']), base);
  draft.title = { value: str(item['title']), html: false };
  const html = str(item['content_html']);
  const text = str(item['content_text']);
  if (html !== '') draft.content = { value: html, html: true };
  else if (text !== '') draft.content = { value: text, html: false };
  const summary = str(item['summary']);
  if (summary !== '') draft.summary = { value: summary, html: false };
  const published = str(item['date_published']);
  if (published !== '') draft.published = published;
  // As for RSS and Atom, the date an item was last changed when it says nothing else.
  const modified = str(item['date_modified']);
  if (modified !== '') draft.modified = modified;
  draft.authors = authors(item);
  if (Array.isArray(item['tags'])) draft.categories = item['tags'].map(str).filter((tag) => tag !== '');
  if (Array.isArray(item['attachments']))
    draft.enclosures = item['attachments']
      .filter(isObject)
      .map((a) => attachment(a, base))
      .filter((a) => a.url !== '');
  const image = webUrl(str(item['image']), base) || webUrl(str(item['banner_image']), base);
  if (image !== '') draft.mediaImage = image;
  draft.sourceText = JSON.stringify(item);
  const parsed = finishItem(draft);
  // JSON Feed carries the publisher's own plain-text rendering; prefer it to ours.
  if (text !== '') parsed.description_text = text;
  return parsed;
}

/**
 * JSON Feed 1.1 `authors` and 1.0 `author`, of the feed or of an item: feeds write both during
 * the move from one version to the other, and `authors` as a single object too. finishItem keeps
 * each name once.
 */
function authors(owner: Json): Author[] {
  return [...asList(owner['authors']), ...asList(owner['author'])]
    .filter(isObject)
    .map((author) => ({ name: str(author['name']) }))
    .filter((author) => author.name !== '');
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

function attachment(value: Json, base: string | undefined): Enclosure {
  const type = str(value['mime_type']);
  const size = Number(value['size_in_bytes']);
  return {
    url: webUrl(str(value['url']), base),
    ...(type ? { type } : {}),
    ...(Number.isFinite(size) && size > 0 ? { length: size } : {}),
  };
}
