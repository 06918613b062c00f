import type { Author, Enclosure, ParsedItem } from '../../src/domain/item.js';
import { sourceHashOf } from '../../src/domain/item-identity.js';
import { parseDate } from '../shared/dates.js';
import { detached } from '../shared/detach.js';
import { htmlToText, renderHtml, textAsHtml } from '../shared/html.js';
import { webUrl } from '../shared/urls.js';
import type { TextValue } from './xml-text.js';

/** What a format reader collects from one item in its single walk; `finishItem` turns it into a ParsedItem. */
export interface ItemDraft {
  base: string | undefined;
  id?: string;
  url: string;
  /**
   * An id that also names the item's page when it is a web address: an RSS guid not marked
   * `isPermaLink="false"`, an Atom id (WordPress writes its permalinks so). The url when there is none.
   */
  permalink?: string;
  /** FeedBurner's `feedburner:origLink`: the publisher's own address behind its redirecting `<link>`. */
  originalUrl?: string;
  title?: TextValue;
  content?: TextValue;
  summary?: TextValue;
  /** Date strings in order of preference; the first one present is used. */
  published?: string;
  publishedFallback?: string;
  /** The last resort: when the item only says when it was last changed (dcterms:modified, atom:updated). */
  modified?: string;
  authors: Author[];
  /** Authors from lower-precedence sources (dc:creator, itunes:author), used when `authors` is empty. */
  fallbackAuthors: Author[];
  categories: string[];
  enclosures: Enclosure[];
  /** Image candidates in gofeed's order: itunes:image, media thumbnail/content image, image enclosure. */
  itunesImage?: string;
  mediaImage?: string;
  /** The entry as the source wrote it, whose hash tells a change at the source from a new reading of it. */
  sourceText?: string;
}

export function newDraft(base: string | undefined): ItemDraft {
  return { base, url: '', authors: [], fallbackAuthors: [], categories: [], enclosures: [] };
}

export function finishItem(draft: ItemDraft): ParsedItem {
  const source = draft.content !== undefined && draft.content.value !== '' ? draft.content : draft.summary;
  const rendered = source === undefined ? undefined : renderHtml(source.html ? source.value : textAsHtml(source.value), draft.base);
  let firstImage = rendered?.firstImage ?? null;
  // gofeed looks for an <img> in the content, then the description.
  if (firstImage === null && source === draft.content && draft.summary?.html && draft.summary.value.includes('<img')) {
    firstImage = renderHtml(draft.summary.value, draft.base).firstImage;
  }
  const imageEnclosure = draft.enclosures.find((enclosure) => enclosure.type?.startsWith('image/'));
  const thumbnail = draft.itunesImage ?? draft.mediaImage ?? imageEnclosure?.url ?? firstImage;
  const item: ParsedItem = {
    url: detached(draft.url || permalinkUrl(draft.permalink)),
    title: draft.title === undefined ? '' : detached(titleText(draft.title)),
    description_html: detached(rendered?.html ?? ''),
    description_text: detached(rendered?.text ?? ''),
    thumbnail: thumbnail === null ? null : detached(thumbnail),
    authors: distinctAuthors(draft.authors.length > 0 ? draft.authors : draft.fallbackAuthors),
    date_published: publishedDate(draft),
    categories: draft.categories.map(detached),
    enclosures: draft.enclosures.map((enclosure) => ({ ...enclosure, url: detached(enclosure.url) })),
  };
  if (draft.id !== undefined && draft.id !== '') item.id = detached(draft.id);
  if (draft.sourceText !== undefined) item.source_hash = sourceHashOf(draft.sourceText);
  if (draft.originalUrl !== undefined && draft.originalUrl !== '' && draft.originalUrl !== item.url)
    item.original_url = detached(draft.originalUrl);
  return item;
}

/** The authors, each name once (feeds repeat a person across `<author>` and `dc:creator`), copied out of the document. */
export function distinctAuthors(authors: readonly Author[]): Author[] {
  const seen = new Set<string>();
  const distinct: Author[] = [];
  for (const author of authors) {
    if (seen.has(author.name)) continue;
    seen.add(author.name);
    distinct.push({ ...author, name: detached(author.name) });
  }
  return distinct;
}

/**
 * The authors a feed names for itself, given to each of its items that names none: an Atom feed's
 * (RFC 4287 §4.2.1), an RSS channel's creator, a JSON Feed's top-level `authors`.
 */
export function inheritAuthors(items: readonly ParsedItem[], feedAuthors: readonly Author[]): void {
  if (feedAuthors.length === 0) return;
  const inherited = distinctAuthors(feedAuthors);
  for (const item of items) if (item.authors.length === 0) item.authors = inherited.map((author) => ({ ...author }));
}

/** The permalink as a url when it is an absolute web address, else ''. */
function permalinkUrl(permalink: string | undefined): string {
  return permalink !== undefined && /^https?:\/\//i.test(permalink) ? webUrl(permalink, undefined) : '';
}

/** A title's text: whitespace collapsed, a no-break space inside kept (see htmlToText). */
export function titleText(title: TextValue): string {
  return title.html ? htmlToText(title.value) : title.value.replace(/[^\S\u00a0]+/g, ' ').trim();
}

/** The first date present, in the draft's order of preference; a present but unreadable one stops the search. */
function publishedDate(draft: ItemDraft): string | null {
  for (const candidate of [draft.published, draft.publishedFallback, draft.modified]) {
    if (candidate !== undefined) return parseDate(candidate);
  }
  return null;
}
