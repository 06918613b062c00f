import type { ParsedItem } from '../../src/domain/item.js';
import { linksWithin } from './block-links.js';
import { readBlock } from './block-item.js';
import type { PageElement } from './dom.js';
import type { LdArticle } from './json-ld.js';
import type { PageLink } from './links.js';
import { readHEntries } from './microformats.js';
import { parseStatedDate } from './text-dates.js';
import { absoluteUrl } from './urls.js';

/**
 * The listing's entries from JSON-LD, each completed from the link to it on the page: ItemList
 * entries often carry only a URL, and the page's block holds the title, summary and picture.
 * The page's own link wins for the URL when only the host differs (a JSON-LD block written for
 * the canonical host of a mirrored site), since that is the address the reader sees.
 */
export function itemsFromJsonLd(articles: readonly LdArticle[], links: readonly PageLink[], base: string): ParsedItem[] {
  const byUrl = new Map<string, PageLink>();
  const byPath = new Map<string, PageLink>();
  for (const link of links) {
    if (!byUrl.has(link.url)) byUrl.set(link.url, link);
    const key = pathKey(link.url);
    if (!byPath.has(key)) byPath.set(key, link);
  }
  const items: ParsedItem[] = [];
  const seen = new Set<string>();
  for (const article of articles) {
    const stated = article.url === null ? null : absoluteUrl(article.url, base);
    if (stated === null) continue;
    const link = byUrl.get(stated) ?? byPath.get(pathKey(stated));
    const block = link === undefined ? null : readBlock(blockAround(link, links), links, base);
    const url = link?.url ?? stated;
    const title = article.title ?? block?.item.title ?? '';
    if (title === '' || seen.has(url)) continue;
    seen.add(url);
    items.push({
      url,
      title,
      description_text: article.description ?? block?.item.description_text ?? '',
      description_html: block?.item.description_html ?? '',
      thumbnail: (article.image !== null ? absoluteUrl(article.image, base) : null) ?? block?.item.thumbnail ?? null,
      authors: article.authors.length > 0 ? article.authors.map((name) => ({ name })) : (block?.item.authors ?? []),
      date_published: parseStatedDate(article.datePublished) ?? block?.item.date_published ?? null,
      categories: [],
      enclosures: [],
    });
  }
  return items;
}

/** The largest ancestor of the link (a few levels at most) whose links all lead to the same place. */
function blockAround(link: PageLink, links: readonly PageLink[]): PageElement {
  let block = link.element;
  for (let climb = 0; climb < 8; climb++) {
    const parent = block.parent;
    if (parent === null || parent.name === 'body') break;
    if (linksWithin(links, parent).some((other) => other.url !== link.url)) break;
    block = parent;
  }
  return block;
}

function pathKey(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** h-entry items, completed from the generic block reading where the markup leaves a field out. */
export function itemsFromHEntries(root: PageElement, links: readonly PageLink[], base: string): ParsedItem[] {
  const items: ParsedItem[] = [];
  for (const { element, item } of readHEntries(root, base)) {
    const block = readBlock(element, links, base);
    const url = item.url ?? block?.item.url;
    const title = item.title ?? block?.item.title;
    if (url === undefined || title === undefined || title === '') continue;
    const description = item.description_text ?? block?.item.description_text ?? '';
    items.push({
      url,
      title,
      description_text: description,
      description_html: block?.item.description_text === description ? block.item.description_html : '',
      thumbnail: item.thumbnail ?? block?.item.thumbnail ?? null,
      authors: item.authors ?? block?.item.authors ?? [],
      date_published: item.date_published ?? block?.item.date_published ?? null,
      categories: [],
      enclosures: [],
    });
  }
  return items;
}
