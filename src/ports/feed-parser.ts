import type { FullTextRules } from '../domain/item-article.js';
import type { ParsedFeed, ParsedPage } from '../domain/item.js';

export interface ParseMeta {
  url: string;
  contentType?: string;
  /** The HTTP Content-Location, when the server sent one: the base for relative links, resolved against `url`. */
  contentLocation?: string;
}

/** The article of one page, as workers/extract-article.ts finds it; HTML sanitised, links absolute. */
export interface ExtractedArticle {
  title: string | null;
  byline: string | null;
  published: string | null;
  lead_image: string | null;
  language: string | null;
  content_html: string;
  content_text: string;
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
  /** The main article of an HTML page (full text); null when the page holds none. */
  extractArticle(body: Uint8Array, meta: ParseMeta & { rules?: FullTextRules }): Promise<ExtractedArticle | null>;
  close(): Promise<void>;
}
