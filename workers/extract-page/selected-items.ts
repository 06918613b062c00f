import { compile, selectAll, selectOne } from 'css-select';
import { FeedmillError } from '../../src/domain/errors.js';
import type { ParsedItem } from '../../src/domain/item.js';
import { splitFieldSelector, type FieldSelector, type PageSelectors } from '../../src/domain/page-selectors.js';
import { renderHtml, textAsHtml } from '../shared/html.js';
import { pageAdapter } from './css-adapter.js';
import type { PageElement, PageNode } from './dom.js';
import { findThumbnail, largestCandidate } from './images.js';
import { innerHtml } from './serialize.js';
import { parseStatedDate } from './text-dates.js';
import { absoluteUrl } from './urls.js';
import { textOf } from './walk.js';

/** A page yields at most this many items by selectors: a selector matching every `div` is a mistake, not a feed. */
export const maxSelectedItems = 500;
/** Titles and names longer than this are a container's text, not a title. */
const maxFieldText = 1000;

const options = { adapter: pageAdapter, cacheResults: false } as const;

/** A field's compiled selector: the elements it selects inside an item, and the attribute read. */
interface CompiledField {
  find: (item: PageElement) => PageElement | null;
  attribute: string | null;
}

function compileField(text: string | undefined): CompiledField | undefined {
  if (text === undefined) return undefined;
  const { css, attribute }: FieldSelector = splitFieldSelector(text);
  if (css === null) return { find: (item) => item, attribute };
  const query = compile<PageNode, PageElement>(css, options);
  // The item itself counts, so `link: "a"` works when the item is the link.
  return { find: (item) => (query(item) ? item : selectOne<PageNode, PageElement>(query, item, options)), attribute };
}

const firstLink = compile<PageNode, PageElement>('a[href]', options);
const firstTime = compile<PageNode, PageElement>('time', options);

/** The element, or its first descendant, that `query` matches. */
const selfOrFirst = (element: PageElement, query: (element: PageElement) => boolean): PageElement | null =>
  query(element) ? element : selectOne<PageNode, PageElement>(query, element, options);

const textOfField = (element: PageElement, attribute: string | null): string =>
  (attribute === null ? textOf(element, maxFieldText) : (element.attribs[attribute] ?? '')).trim().slice(0, maxFieldText);

/**
 * The items a person's selectors name on a page (docs/selectors.md): one per element `item`
 * matches, in page order, each field read inside it. Selectors were checked by the domain
 * (page-selectors.ts); this runs in the parser pool, under its time limit.
 * @throws FeedmillError `no_items_found` when `item` matches nothing that has a link or a title.
 */
export function selectedItems(root: PageElement, selectors: PageSelectors, base: string, pageUrl: string): ParsedItem[] {
  const fields = {
    title: compileField(selectors.title),
    link: compileField(selectors.link),
    date: compileField(selectors.date),
    summary: compileField(selectors.summary),
    image: compileField(selectors.image),
    author: compileField(selectors.author),
  };
  const matches = selectAll<PageNode, PageElement>(selectors.item, root, options).slice(0, maxSelectedItems);
  const items: ParsedItem[] = [];
  for (const element of matches) {
    const item = readItem(element, fields, base);
    if (item !== null) items.push(item);
  }
  if (items.length === 0) {
    throw new FeedmillError(
      'no_items_found',
      `Expected the selectors to name items on ${pageUrl}, got ${matches.length === 0 ? 'no element matching' : 'no link or title in any element matching'} \`selectors.item\` (${selectors.item}); check them against the page as feedmill fetches it`,
    );
  }
  return items;
}

type Fields = Record<'title' | 'link' | 'date' | 'summary' | 'image' | 'author', CompiledField | undefined>;

function readItem(element: PageElement, fields: Fields, base: string): ParsedItem | null {
  const anchor = selfOrFirst(element, firstLink);
  const url = readLink(element, fields.link, anchor, base);
  const titleElement = fields.title ? fields.title.find(element) : anchor;
  const title = titleElement === null ? '' : textOfField(titleElement, fields.title?.attribute ?? null);
  if (url === null && title === '') return null;
  const summary = readSummary(element, fields.summary, base, title);
  const authorElement = fields.author?.find(element) ?? null;
  const author = authorElement === null ? '' : textOfField(authorElement, fields.author?.attribute ?? null);
  return {
    url: url ?? '',
    title,
    description_text: summary.text,
    description_html: summary.html,
    thumbnail: readImage(element, fields.image, base),
    authors: author === '' ? [] : [{ name: author }],
    date_published: readDate(element, fields.date),
    categories: [],
    enclosures: [],
  };
}

/** `link` given: its attribute, else the `href` of the match or of its first link; absent: the item's first link. */
function readLink(item: PageElement, field: CompiledField | undefined, anchor: PageElement | null, base: string): string | null {
  if (field === undefined) return anchor === null ? null : absoluteUrl(anchor.attribs['href'] ?? '', base);
  const match = field.find(item);
  if (match === null) return null;
  if (field.attribute !== null) return absoluteUrl(match.attribs[field.attribute] ?? '', base);
  const target = selfOrFirst(match, firstLink);
  return target === null ? null : absoluteUrl(target.attribs['href'] ?? '', base);
}

/** `date` given: its attribute, else the match's `datetime`, else its text; absent: the item's first `<time>`. */
function readDate(item: PageElement, field: CompiledField | undefined): string | null {
  const match = field === undefined ? selfOrFirst(item, firstTime) : field.find(item);
  if (match === null) return null;
  if (field?.attribute != null) return parseStatedDate(match.attribs[field.attribute]);
  return parseStatedDate(match.attribs['datetime']) ?? parseStatedDate(textOf(match, 200));
}

/** `image` given: its attribute, else the match's `src`/`srcset` or its first image's; absent: the item's first image. */
function readImage(item: PageElement, field: CompiledField | undefined, base: string): string | null {
  if (field === undefined) return findThumbnail(item, base);
  const match = field.find(item);
  if (match === null) return null;
  if (field.attribute === null) return findThumbnail(match, base);
  const value = match.attribs[field.attribute] ?? '';
  const candidate = field.attribute.endsWith('srcset') ? largestCandidate(value) : value;
  return candidate === null ? null : absoluteUrl(candidate, base);
}

/** The teaser: the match's HTML, sanitised (relative links made absolute), or the attribute's text. */
function readSummary(item: PageElement, field: CompiledField | undefined, base: string, title: string): { text: string; html: string } {
  const match = field?.find(item) ?? null;
  if (field === undefined || match === null) return { text: '', html: '' };
  if (field.attribute !== null) {
    const text = (match.attribs[field.attribute] ?? '').trim();
    return { text, html: text === '' ? '' : textAsHtml(text) };
  }
  const rendered = renderHtml(innerHtml(match), base);
  if (rendered.text === '' || rendered.text === title) return { text: '', html: '' };
  return { text: rendered.text, html: rendered.html };
}
