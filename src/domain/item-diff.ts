import type { ParsedItem } from './item.js';
import { contentHash, identifyItems } from './item-identity.js';
import { publishedAt } from './item-dates.js';
import type { StoredItem } from './stored-item.js';

/** What the store already holds of an item. */
export interface KnownItem {
  contentHash: string;
  addedAt: string;
}

export interface ItemDiff {
  fresh: StoredItem[];
  changed: StoredItem[];
}

/**
 * Splits a parsed document into items never seen before and items whose content changed. Items
 * repeated inside one document count once (see identifyItems); items that merely share a guid are
 * not repeats (see itemKeys). A changed item keeps the time it was first added.
 */
export function diffItems(feedId: string, incoming: readonly ParsedItem[], known: ReadonlyMap<string, KnownItem>, now: string): ItemDiff {
  const fresh: StoredItem[] = [];
  const changed: StoredItem[] = [];
  for (const { key, item } of identifyItems(incoming)) {
    const hash = contentHash(item);
    const before = known.get(key);
    if (before?.contentHash === hash) continue;
    const addedAt = before?.addedAt ?? now;
    const stored: StoredItem = {
      ...item,
      feedId,
      key,
      contentHash: hash,
      addedAt,
      publishedAt: publishedAt(item.date_published, addedAt),
    };
    (before ? changed : fresh).push(stored);
  }
  return { fresh, changed };
}
