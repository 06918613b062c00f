import type { Principal } from '../domain/api-key.js';
import type { EventItem } from '../webhook-event/feed-update-event.js';
import type { Feed } from '../domain/feed.js';
import { judgeFilter, parseFilter, type FilterCondition } from '../domain/item-filter.js';
import { judgeItem, noFilters, parseKeepBlock, type KeepBlockVerdict } from '../domain/keep-block.js';
import type { StoredItem } from '../domain/stored-item.js';
import { bundleContent } from './bundle-items.js';
import type { AppDeps } from './deps.js';
import { filterSubject } from './feed-events.js';
import { eventItem } from '../webhook-event/to-event.js';
import { findFeed } from './find-feed.js';
import { findBundle } from './bundles.js';

export interface FilterVerdict {
  feedId: string;
  feedTitle: string;
  item: EventItem;
  /** Whether a webhook with this filter would send the item. */
  kept: boolean;
  /** The condition that decided, with its path in the filter; null without a filter. */
  decidedBy: { path: string; condition: FilterCondition } | null;
}

/** Enough recent items to judge a filter by, without reading every feed of a large account. */
const feedsRead = 20;
const itemsPerFeed = 10;
const shown = 30;

type PreviewDeps = Pick<AppDeps, 'feeds' | 'items' | 'bundles' | 'clock'>;

/** The newest stored items of some feeds, as stored (no filter applied), newest first. */
async function recentItems(
  deps: PreviewDeps,
  feeds: readonly Feed[],
  perFeed: number,
  most: number,
): Promise<{ feed: Feed; item: StoredItem }[]> {
  const lists = await Promise.all(
    feeds.map(async (feed) => (await deps.items.list(feed.id, 'last_added', perFeed)).map((item) => ({ feed, item }))),
  );
  return lists
    .flat()
    .sort((a, b) => (a.item.publishedAt < b.item.publishedAt ? 1 : a.item.publishedAt > b.item.publishedAt ? -1 : 0))
    .slice(0, most);
}

/** The live member feeds of some bundles, each once. */
async function bundleFeeds(deps: PreviewDeps, principal: Principal, bundleIds: readonly string[]): Promise<Feed[]> {
  const ids = new Set<string>();
  for (const bundleId of bundleIds) for (const feedId of (await findBundle(deps, principal, bundleId)).feedIds) ids.add(feedId);
  const lookups = await Promise.all([...ids].slice(0, feedsRead).map((feedId) => deps.feeds.get(principal.accountId, feedId)));
  return lookups.flatMap((lookup) => (lookup.state === 'present' ? [lookup.feed] : []));
}

/**
 * A dry run of a webhook filter over the recent items of the feeds it would cover (some feeds, the
 * feeds of some bundles, or the account's newest feeds), newest first: what would be sent, what not.
 * The filter is checked by the same rules as when it is saved.
 */
export async function previewWebhookFilter(
  deps: PreviewDeps,
  principal: Principal,
  input: { filters: unknown; feeds?: readonly string[]; bundles?: readonly string[] },
): Promise<FilterVerdict[]> {
  const filter = input.filters === null || input.filters === undefined ? null : parseFilter(input.filters);
  let feeds: Feed[];
  if (input.feeds) feeds = await Promise.all(input.feeds.slice(0, feedsRead).map((feedId) => findFeed(deps, principal, feedId)));
  else if (input.bundles) feeds = await bundleFeeds(deps, principal, input.bundles);
  else feeds = (await deps.feeds.list(principal.accountId, { limit: feedsRead, offset: 0 })).feeds;
  const now = deps.clock.now();
  return (await recentItems(deps, feeds, itemsPerFeed, shown)).map(({ feed, item }) => {
    const judged = filter === null ? null : judgeFilter(filterSubject(item, feed.settings.customAuthor), filter, now);
    return {
      feedId: feed.id,
      feedTitle: feed.title,
      item: eventItem(item, feed.settings.customAuthor),
      kept: judged?.matched ?? true,
      decidedBy: judged?.decidedBy ?? null,
    };
  });
}

/** One recent item, and what candidate keep/block filters would do with it. */
export interface KeepBlockPreview {
  feed: Feed;
  item: StoredItem;
  verdict: KeepBlockVerdict;
}

/** How many recent items a keep/block dry run judges. */
const previewedItems = 50;

/**
 * POST /v1/feeds/:id/filters/preview: candidate keep/block filters (checked as when saved) over the
 * feed's newest stored items, whatever its current filters drop, each marked kept or dropped with
 * the condition that decided. Nothing is saved.
 */
export async function previewFeedFilters(
  deps: PreviewDeps,
  principal: Principal,
  feedId: string,
  filters: unknown,
): Promise<KeepBlockPreview[]> {
  const candidate = parseKeepBlock(filters);
  const feed = await findFeed(deps, principal, feedId);
  const now = deps.clock.now();
  return (await recentItems(deps, [feed], previewedItems, previewedItems)).map(({ item }) => ({
    feed,
    item,
    verdict: judgeItem(filterSubject(item, feed.settings.customAuthor), candidate, now),
  }));
}

/**
 * POST /v1/bundles/:id/filters/preview: candidate keep/block filters over the newest items the
 * bundle shows before its own filters (its members' filters still apply), as for a feed.
 */
export async function previewBundleFilters(
  deps: PreviewDeps,
  principal: Principal,
  bundleId: string,
  filters: unknown,
): Promise<KeepBlockPreview[]> {
  const candidate = parseKeepBlock(filters);
  const bundle = await findBundle(deps, principal, bundleId);
  const content = await bundleContent(deps, { ...bundle, filters: noFilters });
  const feeds = new Map(content.feeds.map((feed) => [feed.id, feed]));
  const now = deps.clock.now();
  return content.items.slice(0, previewedItems).flatMap((item) => {
    const feed = feeds.get(item.feedId);
    return feed ? [{ feed, item, verdict: judgeItem(filterSubject(item, feed.settings.customAuthor), candidate, now) }] : [];
  });
}
