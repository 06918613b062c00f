import type { Bundle } from '../domain/bundle.js';
import type { Feed, ItemSort } from '../domain/feed.js';
import { mergeItems } from '../domain/merge-items.js';
import type { StoredItem } from '../domain/stored-item.js';
import { itemsShown, type AppDeps } from './deps.js';
import { feedItems } from './shown-items.js';

export interface BundleContent {
  /** Member feeds still present, in member order. */
  feeds: Feed[];
  items: StoredItem[];
}

/** The merged items of a bundle's live member feeds, newest first in the given order. */
export async function bundleContent(deps: Pick<AppDeps, 'feeds' | 'items' | 'clock'>, bundle: Bundle, sort: ItemSort = bundle.sort): Promise<BundleContent> {
  const feeds = (await Promise.all(bundle.feedIds.map((id) => deps.feeds.getById(id)))).filter(
    (feed): feed is Feed => feed !== undefined && feed.accountId === bundle.accountId,
  );
  // Each member's own filters apply to its items in the bundle too.
  const lists = await Promise.all(feeds.map((feed) => feedItems(deps, feed, sort)));
  return { feeds, items: mergeItems(lists, sort, itemsShown) };
}

export const customAuthorsOf = (feeds: readonly Feed[]): Map<string, string | null> =>
  new Map(feeds.map((feed) => [feed.id, feed.settings.customAuthor]));
