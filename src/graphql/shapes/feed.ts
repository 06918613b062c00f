import type { Feed } from '../../domain/feed.js';
import type { FollowedCandidate } from '../../domain/platforms/feed-candidate.js';
import { feedHealth, type FeedState } from '../../domain/feed-health.js';
import type { FeedWithItems } from '../../domain/shown-item.js';
import type { EventFeed } from '../../webhook-event/feed-update-event.js';
import { toEventFeed } from '../../webhook-event/to-event.js';
import { itemShape, type ItemShape } from './item.js';

/** A feed's health as GraphQL's FeedStatus shows it (the names of the REST `status` object). */
export interface FeedStatusShape {
  state: FeedState;
  last_fetched_at: string | null;
  last_success_at: string | null;
  next_fetch_at: string | null;
  last_outcome: string | null;
  consecutive_errors: number;
  last_error: { code: string; message: string } | null;
  disabled_at: string | null;
  disabled_reason: string | null;
}

export function feedStatusShape(feed: Pick<Feed, 'fetch' | 'settings'>): FeedStatusShape {
  const health = feedHealth(feed);
  return {
    state: health.state,
    last_fetched_at: health.lastFetchedAt,
    last_success_at: health.lastSuccessAt,
    next_fetch_at: health.nextFetchAt,
    last_outcome: health.lastOutcome,
    consecutive_errors: health.consecutiveErrors,
    last_error: health.lastError && { code: health.lastError.code, message: health.lastError.message },
    disabled_at: health.disabled?.at ?? null,
    disabled_reason: health.disabled?.reason ?? null,
  };
}

/**
 * A feed as GraphQL's Feed resolves it: the spec's fields (an event's `feed` is one as recorded);
 * `status` and `items` when the use case loaded them.
 */
export type FeedShape = EventFeed & { status?: FeedStatusShape; followed?: FollowedCandidate | null; items?: ItemShape[] };

export const feedShape = (feed: Feed, publicUrl: string): FeedShape => ({
  ...toEventFeed(feed, publicUrl),
  status: feedStatusShape(feed),
  followed: feed.fetch.followed ?? null,
});

export const feedWithItemsShape = ({ feed, items }: FeedWithItems, publicUrl: string): FeedShape => ({
  ...feedShape(feed, publicUrl),
  items: items.map(itemShape),
});
