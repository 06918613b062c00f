/** Spec "Author". */
export interface Author {
  name: string;
}

export interface Enclosure {
  url: string;
  type?: string;
  length?: number;
}

/**
 * An item as a parser or extractor produces it: the spec's "Feed item" fields, plus what we know
 * beyond the spec. `date_published` is null when the source gives no date we can trust; the
 * service then shows the time it first saw the item (see `publishedAt` in item-dates.ts).
 */
export interface ParsedItem {
  /** guid / atom:id / JSON Feed id, as the source states it. */
  id?: string;
  url: string;
  /**
   * The publisher's own address when `url` is a redirecting proxy's (FeedBurner's
   * `feedburner:origLink`). Not shown: `url` stays what the feed links to; bundles use both to
   * recognise the same article reached through two feeds (bundle-merge.ts).
   */
  original_url?: string;
  title: string;
  description_text: string;
  /** Sanitised HTML; empty when the item has no description. */
  description_html: string;
  thumbnail: string | null;
  authors: Author[];
  /** ISO 8601 UTC with milliseconds, or null when the source has none or it does not parse. */
  date_published: string | null;
  categories: string[];
  enclosures: Enclosure[];
  /**
   * Hash of the entry as the source wrote it (an RSS item's or Atom entry's markup, a JSON Feed
   * item's JSON), so that a change is told from a newer parser reading the same entry differently
   * (item-diff.ts). Absent for items a page extractor found. Never shown.
   */
  source_hash?: string;
}

/** The vocabulary a native feed is written in (CDF, RSS's forerunner, reads as `rss`). */
export type NativeFeedFormat = 'rss' | 'atom' | 'rdf' | 'json_feed';

/** What `parseFeed` and `extractPage` return. */
export interface ParsedFeed {
  /** Set by `parseFeed`: the document's format. */
  format?: NativeFeedFormat;
  title: string;
  description: string;
  link: string;
  icon: string;
  /** The feed's own categories (RSS channel, iTunes with their subcategories, Atom feed), when it has any. */
  categories?: string[];
  items: ParsedItem[];
}

/** A native feed a web page advertises with `<link rel="alternate">`. */
export interface FeedLink {
  url: string;
  type: 'rss' | 'atom' | 'json';
  title: string;
}

/** What `extractPage` returns: the page as a feed, plus the native feeds it advertises (best first). */
export interface ParsedPage extends ParsedFeed {
  feedLinks: FeedLink[];
}
