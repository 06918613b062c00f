import type { ItemSort } from './feed.js';
import type { StoredItem } from './stored-item.js';

const sortKey: Record<ItemSort, (item: StoredItem) => string> = {
  last_added: (item) => item.addedAt,
  date: (item) => item.publishedAt,
};

/**
 * A bundle's items: the member feeds' items in one order, newest first, each article once (the
 * same guid or link in two feeds is one item; the first feed listed wins). Stable, so items
 * added together keep their document order.
 */
export function mergeItems(lists: readonly (readonly StoredItem[])[], sort: ItemSort, limit: number): StoredItem[] {
  const seen = new Set<string>();
  const merged: StoredItem[] = [];
  for (const list of lists) {
    for (const item of list) {
      if (seen.has(item.key)) continue;
      seen.add(item.key);
      merged.push(item);
    }
  }
  const key = sortKey[sort];
  return merged
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (key(a.item) < key(b.item) ? 1 : key(a.item) > key(b.item) ? -1 : a.index - b.index))
    .slice(0, limit)
    .map(({ item }) => item);
}
