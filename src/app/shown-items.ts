import type { Feed, ItemSort } from '../domain/feed.js';
import { awaitsArticle, withFullText } from '../domain/full-text.js';
import { filtersAgeWithTime, hasFilters, judgeItem, type KeepBlock } from '../domain/keep-block.js';
import type { StoredItem } from '../domain/stored-item.js';
import { itemsShown, type AppDeps } from './deps.js';
import { filterSubject } from './feed-events.js';

/**
 * With filters set, this many times the shown number of stored items is read, so a filter that
 * drops most items still leaves a full page when the store holds one.
 */
const readAhead = 5;

/** The items that pass keep/block filters; `authors` gives each item's feed's custom author. */
export function passing<T extends StoredItem>(
  items: readonly T[],
  filters: KeepBlock,
  authors: ReadonlyMap<string, string | null>,
  now: Date,
): T[] {
  if (!hasFilters(filters)) return [...items];
  return items.filter((item) => judgeItem(filterSubject(item, authors.get(item.feedId) ?? null), filters, now).kept);
}

/**
 * `api`: every stored item (REST, GraphQL, the dashboard); `announced`: only items announced, as
 * hosted documents and bundles show them (full text holds a new item back until its article is in).
 */
export type ItemsView = 'api' | 'announced';

/**
 * The items of a feed as shown everywhere (API responses, hosted outputs, bundles): newest first in
 * the given order, less those its keep/block filters drop. Filters apply when items are read, not
 * when they are stored, so changing a filter re-applies it to every stored item at once, without
 * fetching the source again.
 */
export async function feedItems(
  deps: Pick<AppDeps, 'items' | 'clock'>,
  feed: Feed,
  sort: ItemSort,
  limit = itemsShown,
  view: ItemsView = 'api',
): Promise<StoredItem[]> {
  const { filters } = feed.settings;
  const readsAhead = hasFilters(filters) || (view === 'announced' && feed.settings.fullText);
  const stored = await deps.items.list(feed.id, sort, readsAhead ? limit * readAhead : limit);
  // Full text: items waiting for their article are not yet announced, and are kept out of the documents that announce.
  const shown = stored
    .filter((item) => view === 'api' || !awaitsArticle(item, feed.settings))
    .map((item) => withFullText(item, feed.settings));
  return passing(shown, filters, new Map([[feed.id, feed.settings.customAuthor]]), deps.clock.now()).slice(0, limit);
}

/**
 * What a cached rendering of filtered items depends on besides the stored data: filters that judge
 * by age keep or drop items as time passes, so their output is re-made each minute.
 */
export const filterEpoch = (deps: Pick<AppDeps, 'clock'>, filters: readonly KeepBlock[]): number | null =>
  filters.some(filtersAgeWithTime) ? Math.floor(deps.clock.now().getTime() / 60_000) : null;
