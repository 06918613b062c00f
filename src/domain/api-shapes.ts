import type { Bundle } from './bundle.js';
import type { Feed, FeedSettings, ItemSort } from './feed.js';
import { feedHealth, type FeedState } from './feed-health.js';
import type { ApiItem, Author } from './item.js';
import type { KeepBlock } from './keep-block.js';
import type { BundledItem } from './merge-items.js';
import { shownUrl } from './safe-url.js';
import type { StoredItem } from './stored-item.js';

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
}

/**
 * Spec "Feed" without items, its fields alone: what events carry (a `status` there would be the
 * one from before the refresh that made the event).
 */
export interface SpecFeed {
  id: string;
  title: string;
  source_url: string;
  rss_feed_url: string;
  description: string;
  icon: string;
}

/** Spec "Feed", without items (list entries, update response), plus `status`. */
export interface ApiFeed extends SpecFeed {
  status: ApiFeedStatus;
}

export interface ApiFeedWithItems extends ApiFeed {
  items: ApiItem[];
}

/** DESIGN.md: `rss_feed_url` = `{FEEDMILL_PUBLIC_URL}/feeds/{id}.xml`. */
export const hostedFeedUrl = (publicUrl: string, feedId: string, extension = 'xml'): string =>
  `${publicUrl.replace(/\/+$/, '')}/feeds/${feedId}.${extension}`;

/** The WebSub hub every hosted document advertises (rel="hub"). */
export const hostedHubUrl = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, '')}/websub`;

/** `customAuthor` replaces every item's authors, everywhere items are shown. */
export const shownAuthors = (item: StoredItem, customAuthor: string | null): Author[] =>
  customAuthor === null ? item.authors : [{ name: customAuthor }];

export function toApiItem(item: StoredItem, customAuthor: string | null): ApiItem {
  return {
    url: shownUrl(item.url),
    title: item.title,
    description_text: item.description_text,
    description_html: item.description_html,
    thumbnail: item.thumbnail === null ? null : shownUrl(item.thumbnail) || null,
    authors: shownAuthors(item, customAuthor),
    date_published: item.publishedAt,
  };
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

export function toSpecFeed(feed: Feed, publicUrl: string): SpecFeed {
  return {
    id: feed.id,
    title: feed.title,
    source_url: feed.sourceUrl,
    rss_feed_url: hostedFeedUrl(publicUrl, feed.id),
    description: feed.description,
    icon: shownUrl(feed.icon),
  };
}

export function toApiFeed(feed: Feed, publicUrl: string): ApiFeed {
  return { ...toSpecFeed(feed, publicUrl), status: toApiFeedStatus(feed) };
}

export function toApiFeedWithItems(feed: Feed, items: readonly StoredItem[], publicUrl: string): ApiFeedWithItems {
  return {
    ...toApiFeed(feed, publicUrl),
    items: items.map((item) => toApiItem(item, feed.settings.customAuthor)),
  };
}

/** Spec "Bundle", without items (list entries, remove-feed response). */
export interface ApiBundle {
  id: string;
  name: string;
  description: string;
  icon: string;
  rss_feed_url: string;
  feeds: string[];
}

/** A bundle item: spec "Feed item", plus the other copies of its article in the bundle's feeds. */
export interface ApiBundleItem extends ApiItem {
  duplicates: { feed_id: string; url: string }[];
}

export interface ApiBundleWithItems extends ApiBundle {
  items: ApiBundleItem[];
}

export function toApiBundle(bundle: Bundle, publicUrl: string): ApiBundle {
  return {
    id: bundle.id,
    name: bundle.name,
    description: bundle.description,
    icon: shownUrl(bundle.icon),
    rss_feed_url: hostedFeedUrl(publicUrl, bundle.id),
    feeds: bundle.feedIds,
  };
}

/** Each item keeps the custom author of the feed it came from. */
export function toApiBundleWithItems(
  bundle: Bundle,
  items: readonly BundledItem[],
  customAuthors: ReadonlyMap<string, string | null>,
  publicUrl: string,
): ApiBundleWithItems {
  return {
    ...toApiBundle(bundle, publicUrl),
    items: items.map((item) => ({
      ...toApiItem(item, customAuthors.get(item.feedId) ?? null),
      duplicates: item.duplicates.map((copy) => ({ feed_id: copy.feedId, url: shownUrl(copy.url) })),
    })),
  };
}

/** Spec "Feed settings", plus `sort`, `paused` and `min_interval` (seconds; null: the global floor). */
export interface ApiFeedSettings {
  customAuthor: string | null;
  sort: ItemSort;
  paused: boolean;
  min_interval: number | null;
  filters: KeepBlock;
}

export const toApiFeedSettings = (settings: FeedSettings): ApiFeedSettings => ({
  customAuthor: settings.customAuthor,
  sort: settings.sort,
  paused: settings.paused,
  min_interval: settings.minIntervalSeconds,
  filters: settings.filters,
});

/** What POST /v1/feeds/:id/refresh answers: what the fetch found, and the feed as it left it. */
export interface ApiRefreshResult {
  outcome: string;
  items_new: number;
  items_changed: number;
  error: { code: string; message: string } | null;
  feed: ApiFeed;
}
