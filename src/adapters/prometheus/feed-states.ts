import { feedStates, type FeedState } from '../../domain/feed-health.js';

export interface FeedStates {
  set(feedId: string, state: FeedState, until: Date): void;
  remove(feedId: string): void;
  /** Feeds by state whose recorded state still holds at `now`; older records are dropped. */
  count(now: number): Record<FeedState, number>;
}

/**
 * Feeds by state as this process's fetches left them, each counted until its next planned fetch.
 * The store is never scanned: a scrape costs one pass over this map (the feeds this process
 * fetched within their poll interval). In a cluster a feed's refresh may run on any worker; the one
 * that fetched it last counts it, and stops at its next planned fetch, when the next one takes
 * over — so `sum by (state)` across processes counts each feed once. A feed whose planned fetch
 * has come but not finished is briefly counted nowhere, and after a start a process counts the
 * feeds it has fetched since.
 */
export function createFeedStates(): FeedStates {
  const feeds = new Map<string, { state: FeedState; until: number }>();
  return {
    set: (feedId, state, until) => void feeds.set(feedId, { state, until: until.getTime() }),
    remove: (feedId) => void feeds.delete(feedId),
    count(now) {
      const counts = Object.fromEntries(feedStates.map((state) => [state, 0])) as Record<FeedState, number>;
      for (const [feedId, { state, until }] of feeds) {
        if (until < now) feeds.delete(feedId);
        else counts[state] += 1;
      }
      return counts;
    },
  };
}
