import type { FeedEventEnvelope, FeedUpdateEvent } from '../webhook-event/feed-update-event.js';
import { filterUses } from '../domain/item-filter.js';
import { hasFilters, judgeItem, type KeepBlock } from '../domain/keep-block.js';
import type { AppDeps } from './deps.js';

/**
 * The keep/block filters of the caller's bundles (among `bundleIds`) that hold the event's feed at
 * the time of the event; an empty list when none holds it (the event is out of scope).
 */
export async function coveringBundleFilters(
  deps: Pick<AppDeps, 'bundles'>,
  envelope: FeedEventEnvelope,
  bundleIds: readonly string[],
): Promise<KeepBlock[]> {
  const filters: KeepBlock[] = [];
  for (const bundleId of bundleIds) {
    const lookup = await deps.bundles.get(envelope.accountId, bundleId);
    if (lookup.state === 'present' && lookup.bundle.feedIds.includes(envelope.feedId)) filters.push(lookup.bundle.filters);
  }
  return filters;
}

/** The categories of the event's items, in event order (events carry none; the store does). */
export async function eventCategories(deps: Pick<AppDeps, 'items'>, envelope: FeedEventEnvelope): Promise<string[][]> {
  const keys = envelope.itemKeys ?? [];
  const byKey = new Map((await deps.items.getMany(envelope.feedId, keys)).map((item) => [item.key, item.categories]));
  return keys.map((key) => byKey.get(key) ?? []);
}

export const filtersNeedCategories = (filters: readonly KeepBlock[]): boolean =>
  filters.some((pair) => [pair.keep, pair.block].some((filter) => filter !== null && filterUses(filter, 'category')));

/**
 * The event as a receiver scoped to bundles sees it: only the items that one of the covering
 * bundles' filters keeps (a bundle without filters keeps all); undefined when none is left.
 */
export function throughBundles(
  event: FeedUpdateEvent,
  filters: readonly KeepBlock[],
  now: Date,
  categories: readonly (readonly string[])[] = [],
): FeedUpdateEvent | undefined {
  if (filters.some((pair) => !hasFilters(pair))) return event;
  const offset = event.data.items_new.length;
  const kept = (item: FeedUpdateEvent['data']['items_new'][number], index: number): boolean =>
    filters.some((pair) => judgeItem({ ...item, categories: categories[index] }, pair, now).kept);
  const itemsNew = event.data.items_new.filter((item, index) => kept(item, index));
  const itemsChanged = event.data.items_changed.filter((item, index) => kept(item, offset + index));
  if (itemsNew.length + itemsChanged.length === 0) return undefined;
  return { ...event, data: { items_new: itemsNew, items_changed: itemsChanged } };
}
