import type { ParsedItem } from './item.js';
import { contentHash, identifyItems } from './item-identity.js';
import { publishedAt } from './item-dates.js';
import type { StoredItem } from './stored-item.js';

/** What the store already holds of an item. */
export interface KnownItem {
  contentHash: string;
  addedAt: string;
  /** `ParsedItem.source_hash` as stored; absent for items stored before it was kept, or found by a page extractor. */
  sourceHash?: string;
}

export interface ItemDiff {
  fresh: StoredItem[];
  changed: StoredItem[];
  /**
   * Items the source did not change but that read differently now (a newer parser), or whose
   * source hash the store did not have yet: stored again, announced never.
   */
  reread: StoredItem[];
}

/**
 * Splits a parsed document into items never seen before, items changed at the source, and items
 * to store again silently. An item is changed when what a subscriber sees differs AND the entry's
 * source differs (or either side has no source hash to compare): a release whose parser reads the
 * same entry differently re-reads it without announcing anything. Items repeated inside one
 * document count once (see identifyItems); items that merely share a guid are not repeats (see
 * itemKeys). A changed or re-read item keeps the time it was first added.
 */
export function diffItems(feedId: string, incoming: readonly ParsedItem[], known: ReadonlyMap<string, KnownItem>, now: string): ItemDiff {
  const diff: ItemDiff = { fresh: [], changed: [], reread: [] };
  for (const { key, item } of identifyItems(incoming)) {
    const hash = contentHash(item);
    const before = known.get(key);
    const sameSource = before?.sourceHash !== undefined && before.sourceHash === item.source_hash;
    const sameContent = before?.contentHash === hash;
    // Nothing to write: seen as it is, or unchanged and no source hash to record.
    if (sameContent && (sameSource || item.source_hash === undefined)) continue;
    const addedAt = before?.addedAt ?? now;
    const stored: StoredItem = {
      ...item,
      feedId,
      key,
      contentHash: hash,
      addedAt,
      publishedAt: publishedAt(item.date_published, addedAt),
    };
    if (!before) diff.fresh.push(stored);
    else if (sameContent || sameSource) diff.reread.push(stored);
    else diff.changed.push(stored);
  }
  return diff;
}
