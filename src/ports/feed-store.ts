import type { Feed, FeedPatch, FeedSettings, FetchState } from '../domain/feed.js';
import type { Page } from '../domain/pagination.js';

/** What rebuilding a feed's schedule reads of it. */
export type DueFeed = Pick<Feed, 'id' | 'settings' | 'fetch'>;

/** `deleted` is a tombstone: it tells "already deleted" apart from "never existed". */
export type FeedLookup = { state: 'present'; feed: Feed } | { state: 'deleted' } | { state: 'missing' };

export interface FeedStore {
  insert(feed: Feed): Promise<void>;
  /** Scoped to an account: another account's feed is `missing`. */
  get(accountId: string, feedId: string): Promise<FeedLookup>;
  /** Unscoped, for the refresh actor and hosted feeds (ids are unguessable). */
  getById(feedId: string): Promise<Feed | undefined>;
  /** Newest first (spec "Pagination rules" 2). */
  list(accountId: string, page: Page): Promise<{ total: number; feeds: Feed[] }>;
  update(accountId: string, feedId: string, patch: FeedPatch, updatedAt: string): Promise<Feed | undefined>;
  updateSettings(accountId: string, feedId: string, settings: FeedSettings, updatedAt: string): Promise<Feed | undefined>;
  /** Records what a refresh learned: the whole of that write, so a cache can take it in place (caches/shared-feed-store.ts). */
  saveFetchState(feedId: string, state: FetchState, fetchUrl: string): Promise<void>;
  /** True when it deleted; false when the feed was missing or already deleted. */
  markDeleted(accountId: string, feedId: string, deletedAt: string): Promise<boolean>;
  /**
   * Every live feed with its fetch state (when it is due) and settings (which queue its refresh goes
   * on: app/refresh-queue.ts), for rebuilding schedules at start-up: in pages of at most `pageSize`,
   * each read when the one before it is done with, so a start over a million feeds holds one page
   * and not all of them, and after a turn of the event loop, so signals and requests get in between
   * pages. A feed created or deleted during the walk may be in it or not.
   */
  dueFeeds(pageSize: number): AsyncIterable<readonly DueFeed[]>;
}
