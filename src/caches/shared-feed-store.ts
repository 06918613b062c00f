import type { Feed, FeedPatch, FeedSettings, FetchState } from '../domain/feed.js';
import type { ChangeBus, FetchStateChange } from '../ports/change-bus.js';
import type { Clock } from '../ports/clock.js';
import type { FeedLookup, FeedStore } from '../ports/feed-store.js';
import { createSharedReadCache, type SharedReadCacheOptions } from './shared-read-cache.js';

/**
 * A feed store for one process of a cluster: every write is announced on the change bus (so the
 * API replicas drop what they cached of the feed), and with `cache` the reads by id are kept in
 * memory until such a notice arrives. A saved fetch state goes round whole and is taken in place:
 * every refresh saves one, and without this each replica would read the feed again for the event
 * the refresh published. A worker announces and does not cache: a refresh must read the fetch state
 * the previous refresh (maybe on another worker) wrote a moment ago.
 *
 * Missing feeds are never kept: an id that does not exist yet may be created by another process,
 * and a guesser must not fill the cache.
 */
export function sharedFeedStore(store: FeedStore, changes: ChangeBus, clock: Clock, cache?: SharedReadCacheOptions): FeedStore {
  const reads = cache ? createSharedReadCache<FeedLookup>(changes, 'feeds', clock, cache) : undefined;
  const take = (change: FetchStateChange): void => reads?.update(change.feedId, withFetchState(change));
  if (reads) {
    changes.subscribe((notice) => {
      if (notice !== 'everything') notice.fetchStates.forEach(take);
    });
  }
  const announce = async (feedId: string): Promise<void> => {
    reads?.drop([feedId]);
    await changes.publish({ feeds: [feedId] });
  };
  const after = async <T>(feedId: string, write: Promise<T>): Promise<T> => {
    try {
      return await write;
    } finally {
      // Also after a failed write: it may have been applied before the error came back.
      await announce(feedId);
    }
  };
  const lookup = async (view: string, feedId: string, load: () => Promise<FeedLookup>): Promise<FeedLookup> =>
    reads ? reads.read(feedId, view, load, (found) => found.state !== 'missing') : load();
  return {
    insert: (feed: Feed) => after(feed.id, store.insert(feed)),
    get: (accountId, feedId) => lookup(`account ${accountId}`, feedId, () => store.get(accountId, feedId)),
    async getById(feedId) {
      const found = await lookup('id', feedId, async () => {
        const feed = await store.getById(feedId);
        return feed ? { state: 'present', feed } : { state: 'missing' };
      });
      return found.state === 'present' ? found.feed : undefined;
    },
    list: (accountId, page) => store.list(accountId, page),
    update: (accountId, feedId, patch: FeedPatch, updatedAt) => after(feedId, store.update(accountId, feedId, patch, updatedAt)),
    updateSettings: (accountId, feedId, settings: FeedSettings, updatedAt) =>
      after(feedId, store.updateSettings(accountId, feedId, settings, updatedAt)),
    async saveFetchState(feedId, fetch: FetchState, fetchUrl) {
      try {
        await store.saveFetchState(feedId, fetch, fetchUrl);
      } catch (error) {
        // Maybe applied, maybe not: only a drop is safe.
        await announce(feedId);
        throw error;
      }
      const change = { feedId, fetch, fetchUrl };
      take(change);
      await changes.publish({ fetchStates: [change] });
    },
    markDeleted: (accountId, feedId, deletedAt) => after(feedId, store.markDeleted(accountId, feedId, deletedAt)),
    dueFeeds: (pageSize) => store.dueFeeds(pageSize),
  };
}

/** A present feed with the saved fetch state; any other lookup cannot take it (a deleted feed is read again). */
function withFetchState(change: FetchStateChange): (found: FeedLookup) => FeedLookup | undefined {
  return (found) =>
    found.state === 'present' ? { state: 'present', feed: { ...found.feed, fetch: change.fetch, fetchUrl: change.fetchUrl } } : undefined;
}
