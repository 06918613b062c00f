import { FeedmillError } from '../src/domain/errors.js';
import type { ParsedFeed, ParsedItem } from '../src/domain/item.js';
import type { PageSelectors } from '../src/domain/page-selectors.js';
import { bestBlockList } from './extract-page/best-list.js';
import { parsePage } from './extract-page/dom.js';
import { readJsonLd } from './extract-page/json-ld.js';
import { collectLinks } from './extract-page/links.js';
import { selectedItems } from './extract-page/selected-items.js';
import { readPageMeta, type FeedLink } from './extract-page/page-meta.js';
import { singleArticle } from './extract-page/single-article.js';
import { itemsFromHEntries, itemsFromJsonLd } from './extract-page/structured.js';

export type { FeedLink } from './extract-page/page-meta.js';

/** A feed made from a web page, plus the native feeds the page advertises (best first). */
export type ExtractedPage = ParsedFeed & { feedLinks: FeedLink[] };

export interface ExtractPageMeta {
  /** The address the page was fetched from: the base for relative links (after `<base href>`). */
  url: string;
  /**
   * A person's selectors (docs/selectors.md): when given they alone decide the items, and the feeds
   * the page advertises are not returned, so nothing found elsewhere overrides them.
   */
  selectors?: PageSelectors;
}

/**
 * Turns an HTML page into a feed. Items come from structured data when the page states them
 * (JSON-LD ItemList / Article / BlogPosting incl. `@graph`, microformats h-entry), else from the
 * page's largest run of repeated blocks that look like articles, else from the page itself when
 * it is one article; or, when `meta.selectors` are given, from them alone. One htmlparser2 parse; every walk is iterative. Synchronous and pure.
 * A page with no articles that advertises feeds (`<link rel="alternate">`) is returned with no
 * items, so its reader can take the feed it names.
 * @throws FeedmillError `no_items_found` when the page holds nothing that reads as an article and advertises no feed.
 */
export function extractPage(html: string, meta: ExtractPageMeta): ExtractedPage {
  const root = parsePage(html);
  const page = readPageMeta(root, meta.url);
  if (meta.selectors !== undefined) {
    const items = selectedItems(root, meta.selectors, page.base, meta.url);
    return { title: page.title, description: page.description, link: page.link, icon: page.icon, items, feedLinks: [] };
  }
  const links = collectLinks(root, page.base, meta.url);
  const stated = readJsonLd(root);
  let items: ParsedItem[] = [];
  const listed = stated.filter((article) => article.listed);
  if (listed.length > 0) items = itemsFromJsonLd(listed, links, page.base);
  if (items.length < 2) {
    const entries = itemsFromHEntries(root, links, page.base);
    if (entries.length > items.length) items = entries;
  }
  if (items.length === 0 && stated.length > 1) items = itemsFromJsonLd(stated, links, page.base);
  if (items.length === 0 && stated.length === 1) items = [singleArticle(page, stated[0])];
  if (items.length === 0) items = bestBlockList(links, page.base)?.items ?? [];
  if (items.length === 0 && page.isArticle) items = [singleArticle(page, undefined)];
  if (items.length === 0 && page.feedLinks.length === 0) {
    throw new FeedmillError(
      'no_items_found',
      `Expected a page listing articles, got ${meta.url} with no JSON-LD ItemList or Article, no microformats h-entry, and no repeated blocks of titled links outside navigation, header and footer; ` +
        'point the feed at the page that lists the articles (a blog index or news section)',
    );
  }
  return { title: page.title, description: page.description, link: page.link, icon: page.icon, items, feedLinks: page.feedLinks };
}
