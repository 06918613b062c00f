import type { ExtractedArticle } from '../domain/article.js';
import type { FullTextRules } from '../domain/full-text-rules.js';
import type { ParsedFeed, ParsedPage } from '../domain/item.js';
import type { PageSelectors } from '../domain/page-selectors.js';
import type { PageExtractor } from '../domain/platforms/platform-rule.js';

export interface ParseMeta {
  url: string;
  contentType?: string;
  /** The HTTP Content-Location, when the server sent one: the base for relative links, resolved against `url`. */
  contentLocation?: string;
  /** extractPage: the built-in extractor that reads this page (a platform rule names it), else the heuristics. */
  extractor?: PageExtractor;
  /** extractPage: a person's selectors (docs/selectors.md); they decide the items, over any extractor. */
  selectors?: PageSelectors;
}

/**
 * Parses fetched documents off the event loop. Throws FeedmillError `not_a_feed` (parse),
 * `no_items_found` (extractPage) or `parse_timeout`.
 */
export interface FeedParser {
  /** A native feed: RSS, Atom or JSON Feed. */
  parse(body: Uint8Array, meta: ParseMeta): Promise<ParsedFeed>;
  /** An HTML page: its items, and the feeds it advertises. */
  extractPage(body: Uint8Array, meta: ParseMeta): Promise<ParsedPage>;
  /**
   * The article of one page (`meta.url` is its final URL, after redirects); null when the page
   * holds none. `rules` are the feed's own, which win over the shipped site rules.
   */
  extractArticle(body: Uint8Array, meta: ParseMeta & { rules?: FullTextRules }): Promise<ExtractedArticle | null>;
  close(): Promise<void>;
}
