import type { ItemSort } from '../domain/feed.js';
import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';
import type { KnownItem } from '../domain/item-diff.js';
import type { ItemArticle } from '../domain/item-article.js';
import type { StoredItem } from '../domain/stored-item.js';

/**
 * A feed's stored items as one refresh saw them. `version` counts the commits to the feed's
 * items: it is the fencing token of the refresh that read it (see ItemStore.commit).
 */
export interface ItemSnapshot {
  version: number;
  items: Map<string, KnownItem>;
}

export interface ItemStore {
  /** Keys and content hashes of a feed's stored items, for the diff, with the version they were read at. */
  known(feedId: string): Promise<ItemSnapshot>;
  /** The stored versions of these items (those that exist), to tell what changed; each with its `article` when it has one. */
  getMany(feedId: string, keys: readonly string[]): Promise<StoredItem[]>;
  /**
   * Stores one feed's new and changed items, and the event that announces them when there is one,
   * as one conditional write: only if the feed's items are still at `version` (then at
   * `version + 1`). False means another refresh committed since `version` was read — a worker that
   * stalled past its job lock while another took the job over — and nothing was written: the store
   * refuses the loser, so an item is never announced by two events.
   *
   * Upserts by (feedId, key); a changed item keeps the time and place it was first added.
   * The event is put in the outbox, unpublished, in the same write.
   */
  commit(feedId: string, version: number, items: readonly StoredItem[], event?: FeedEventEnvelope): Promise<boolean>;
  /** Newest first by `addedAt` (last_added) or by `publishedAt` (date); each with its `article` when it has one. */
  list(feedId: string, sort: ItemSort, limit: number): Promise<StoredItem[]>;
  /**
   * Stores (replaces) an item's article, kept beside the item: a commit never writes nor erases it,
   * so a refresh and an article fetch never overwrite each other's work.
   */
  saveArticle(feedId: string, key: string, article: ItemArticle): Promise<void>;
  /** The items of a feed that have an article record, with it (whatever its state): the article jobs to resume. */
  articles(feedId: string): Promise<Map<string, ItemArticle>>;
  /**
   * The feeds that have any article record: one scan of the articles' partitions, so resuming the
   * article jobs asks `articles` only of these instead of every feed (a query per feed was 43 s of a
   * worker's start at 100,000 feeds; bench/README.md "scale").
   */
  feedsWithArticles(): Promise<Set<string>>;
  /** Changes whenever an article of the feed is saved (empty before the first): part of the version of its hosted documents. */
  articlesStamp(feedId: string): Promise<string>;
  /** Latest `addedAt` of a feed: the version of its hosted document. */
  lastAddedAt(feedId: string): Promise<string | undefined>;
}
