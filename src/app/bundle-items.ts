import type { Bundle } from '../domain/bundle.js';
import type { Feed, ItemSort } from '../domain/feed.js';
import { mergeItems, type BundledItem } from '../domain/bundle-merge.js';
import { itemsShown, type AppDeps } from './deps.js';
import { hasFilters } from '../domain/keep-block.js';
import { feedItems, passing } from './shown-items.js';

export interface BundleContent {
  /** Member feeds still present, in member order. */
  feeds: Feed[];
  /** Each article once, with the other copies of it the member feeds hold (bundle-merge.ts). */
  items: BundledItem[];
}

/**
 * The merged items of a bundle's live member feeds, newest first in the given order: each member's
 * filters apply to its items, then the bundle's own to the merged list.
 */
export async function bundleContent(
  deps: Pick<AppDeps, 'feeds' | 'items' | 'clock'>,
  bundle: Bundle,
  sort: ItemSort = bundle.sort,
): Promise<BundleContent> {
  const feeds = await liveMembers(deps, bundle);
  // Each member's own filters apply to its items in the bundle too.
  const lists = await Promise.all(feeds.map((feed) => feedItems(deps, feed, sort, itemsShown, 'announced')));
  if (!hasFilters(bundle.filters)) return { feeds, items: mergeItems(lists, sort, itemsShown) };
  const merged = mergeItems(lists, sort, Number.POSITIVE_INFINITY);
  return { feeds, items: passing(merged, bundle.filters, customAuthorsOf(feeds), deps.clock.now()).slice(0, itemsShown) };
}

/** The bundle's member feeds still present and still its account's, in member order. */
export async function liveMembers(deps: Pick<AppDeps, 'feeds'>, bundle: Bundle): Promise<Feed[]> {
  const members = await Promise.all(bundle.feedIds.map((id) => deps.feeds.getById(id)));
  return members.filter((feed): feed is Feed => feed !== undefined && feed.accountId === bundle.accountId);
}

export const customAuthorsOf = (feeds: readonly Feed[]): Map<string, string | null> =>
  new Map(feeds.map((feed) => [feed.id, feed.settings.customAuthor]));
