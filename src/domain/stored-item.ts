import type { FullTextView, ItemArticle } from './item-article.js';
import type { ParsedItem } from './item.js';

/** An item as the store keeps it: what the source said, its stable key, and when we first saw it. */
export interface StoredItem extends ParsedItem {
  feedId: string;
  /** Stable identity within the feed (item-identity.ts). */
  key: string;
  /** Hash of the fields a subscriber sees; a different hash means the item changed. */
  contentHash: string;
  /** When feedmill first stored the item: the order of `sort=last_added`. */
  addedAt: string;
  /** The date shown: the source's date, or `addedAt` when it had none (item-dates.ts). */
  publishedAt: string;
  /** Its article, as the store keeps it beside the item (reads fill it in; commits never write it). */
  article?: ItemArticle;
  /** Full text as shown (full-text.ts `withFullText`): set on items on their way to a surface. */
  fullText?: FullTextView;
}
