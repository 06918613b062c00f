import type { FeedPreview } from '../../app/create-feed.js';
import type { Feed } from '../../domain/feed.js';
import type { FollowedCandidate } from '../../domain/platforms/feed-candidate.js';
import { feedHealth, type FeedState } from '../../domain/feed-health.js';
import type { FeedWithItems } from '../../domain/shown-item.js';
import type { EventFeed } from '../../webhook-event/feed-update-event.js';
import { toEventFeed } from '../../webhook-event/to-event.js';
import { toApiItem, type ApiItem } from './item.js';

/** DESIGN.md: the feed's health, an additive `status` object on every feed response. */
export interface ApiFeedStatus {
  state: FeedState;
  last_fetched_at: string | null;
  last_success_at: string | null;
  next_fetch_at: string | null;
  last_outcome: string | null;
  consecutive_errors: number;
  last_error: { code: string; message: string } | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  full_text_failures?: number;
}

/**
 * Spec "Feed", without items (list entries, update response), plus `status`. Its spec fields are
 * those an event's `feed` carries, mapped in one place (webhook-event/to-event.ts).
 */
export interface ApiFeed extends EventFeed {
  status: ApiFeedStatus;
  followed: FollowedCandidate | null;
}

export interface ApiFeedWithItems extends ApiFeed {
  items: ApiItem[];
}

export function toApiFeedStatus(feed: Pick<Feed, 'fetch' | 'settings'>): ApiFeedStatus {
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

export function toApiFeed(feed: Feed, publicUrl: string): ApiFeed {
  return { ...toEventFeed(feed, publicUrl), status: toApiFeedStatus(feed), followed: feed.fetch.followed ?? null };
}

export function toApiFeedWithItems({ feed, items }: FeedWithItems, publicUrl: string): ApiFeedWithItems {
  const api = toApiFeed(feed, publicUrl);
  if (!feed.settings.fullText) return { ...api, items: items.map(toApiItem) };
  const failures = items.filter((item) => item.fullText?.status === 'failed').length;
  return { ...api, status: { ...api.status, full_text_failures: failures }, items: items.map(toApiItem) };
}

/** POST /v1/feeds/preview: the feed a create would make, in the spec's field names, without an id. */
export interface ApiFeedPreview {
  title: string;
  description: string;
  icon: string;
  link: string;
  source_url: string;
  followed: FollowedCandidate | null;
  items: ApiItem[];
}

export const toApiFeedPreview = (preview: FeedPreview): ApiFeedPreview => ({
  title: preview.title,
  description: preview.description,
  icon: preview.icon,
  link: preview.link,
  source_url: preview.sourceUrl,
  followed: preview.followed,
  items: preview.items.map(toApiItem),
});
