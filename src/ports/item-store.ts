import type { ItemSort } from '../domain/feed.js';
import type { KnownItem } from '../domain/item-diff.js';
import type { StoredItem } from '../domain/stored-item.js';

export interface ItemStore {
  /** Keys and content hashes of a feed's stored items, for the diff. */
  known(feedId: string): Promise<Map<string, KnownItem>>;
  /** The stored versions of these items (those that exist), to tell what changed. */
  getMany(feedId: string, keys: readonly string[]): Promise<StoredItem[]>;
  /** Upserts by (feedId, key): writing the same items twice leaves the same state. */
  upsert(items: readonly StoredItem[]): Promise<void>;
  /** Newest first by `addedAt` (last_added) or by `publishedAt` (date). */
  list(feedId: string, sort: ItemSort, limit: number): Promise<StoredItem[]>;
  /** Latest `addedAt` of a feed: the version of its hosted document. */
  lastAddedAt(feedId: string): Promise<string | undefined>;
}
