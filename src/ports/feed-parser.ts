import type { ParsedFeed } from '../domain/item.js';

export interface ParseMeta {
  url: string;
  contentType?: string;
}

/** Parses a fetched document off the event loop. Throws FeedmillError `not_a_feed` or `parse_timeout`. */
export interface FeedParser {
  parse(body: Uint8Array, meta: ParseMeta): Promise<ParsedFeed>;
  close(): Promise<void>;
}
