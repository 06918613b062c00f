import { itemMatches, type FilterSubject, type ItemFilter } from '../domain/item-filter.js';
import { hasFilters, judgeItem, type KeepBlock } from '../domain/keep-block.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../webhook-event/feed-update-event.js';
import type { AppDeps } from './deps.js';
import type { EventScope } from './event-scope.js';

/**
 * The keep/block filters of the scope's bundles that hold the event's feed at the time of the
 * event: undefined when the scope takes the feed directly (every feed, or the feed is listed), an
 * empty list when nothing in the scope covers it.
 */
async function bundleFiltersOf(
  deps: Pick<AppDeps, 'bundles'>,
  scope: EventScope,
  envelope: FeedEventEnvelope,
): Promise<KeepBlock[] | undefined> {
  if (scope.feedIds === undefined && scope.bundleIds === undefined) return undefined;
  if (scope.feedIds?.includes(envelope.feedId)) return undefined;
  const filters: KeepBlock[] = [];
  for (const bundleId of scope.bundleIds ?? []) {
    const lookup = await deps.bundles.get(envelope.accountId, bundleId);
    if (lookup.state === 'present' && lookup.bundle.feedIds.includes(envelope.feedId)) filters.push(lookup.bundle.filters);
  }
  return filters;
}

/**
 * The one rule for whether an event passes a listener (a webhook, the event stream, a GraphQL
 * `feedUpdate` subscription): the event as this listener sees it, or undefined when nothing of it
 * is the listener's. The event must be the scope's account's before anything else is looked at;
 * bundle membership is read at event time, so a feed added to a bundle later is covered and one
 * removed is not. Through bundles only, an item passes when one covering bundle's keep/block
 * filters keep it (a bundle without filters keeps every item); then it must match the listener's
 * own `filter` (a webhook's). Items are judged with the categories the envelope carries.
 */
export async function passingEvent(
  deps: Pick<AppDeps, 'bundles' | 'clock'>,
  scope: EventScope,
  envelope: FeedEventEnvelope,
  filter: ItemFilter | null = null,
): Promise<FeedUpdateEvent | undefined> {
  if (envelope.accountId !== scope.accountId) return undefined;
  const bundles = await bundleFiltersOf(deps, scope, envelope);
  if (bundles?.length === 0) return undefined;
  const throughBundles = bundles !== undefined && bundles.every(hasFilters);
  if (!throughBundles && filter === null) return envelope.event;
  const now = deps.clock.now();
  const passes = (item: FilterSubject): boolean =>
    (!throughBundles || bundles.some((pair) => judgeItem(item, pair, now).kept)) && (filter === null || itemMatches(item, filter, now));
  const { event } = envelope;
  const categories = envelope.itemCategories ?? [];
  const offset = event.data.items_new.length;
  const itemsNew = event.data.items_new.filter((item, index) => passes({ ...item, categories: categories[index] ?? [] }));
  const itemsChanged = event.data.items_changed.filter((item, index) => passes({ ...item, categories: categories[offset + index] ?? [] }));
  if (itemsNew.length + itemsChanged.length === 0) return undefined;
  return { ...event, data: { items_new: itemsNew, items_changed: itemsChanged } };
}
