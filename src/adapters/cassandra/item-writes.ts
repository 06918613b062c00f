import type { StoredItem } from '../../domain/stored-item.js';
import { statement, type Params, type Statement } from './cql.js';
import { instant } from './row.js';

/** What `items` already holds of an item: where it sits in both orders. */
export interface Placed {
  addedAt: string;
  position: number;
  publishedAt: string;
}

const upsertItem = statement(
  'INSERT INTO {ks}.items (feed_id, key, content_hash, added_at, position, published_at, item) VALUES (?, ?, ?, ?, ?, ?, ?)',
  true,
);
const upsertByAdded = statement('INSERT INTO {ks}.items_by_added (feed_id, added_at, position, key, item) VALUES (?, ?, ?, ?, ?)', true);
const upsertByPublished = statement('INSERT INTO {ks}.items_by_published (feed_id, published_at, position, key, item) VALUES (?, ?, ?, ?, ?)', true);
const dropByPublished = statement('DELETE FROM {ks}.items_by_published WHERE feed_id = ? AND published_at = ? AND position = ? AND key = ?', true);

const requireText = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || value === '') throw new Error(`Expected ${what} to be a non-empty string, got \`${String(value)}\``);
  return value;
};

/**
 * The writes that store one item, checked before anything is sent (so a bad item in a batch
 * writes nothing). A known item keeps the added time and position it was first stored with
 * (the embedded store's rule); its row in the date order moves when its date changed. The old
 * row is deleted only then: a delete and an insert of one row in one batch share a timestamp,
 * and the delete would win.
 */
export function itemWrites(item: StoredItem, position: number, before: Placed | undefined): { statement: Statement; params: Params }[] {
  const feedId = requireText(item.feedId, 'feedId');
  const key = requireText(item.key, 'key');
  const contentHash = requireText(item.contentHash, 'contentHash');
  const stored: StoredItem = { ...item, addedAt: before?.addedAt ?? item.addedAt };
  const placedAt = before?.position ?? position;
  const added = instant(stored.addedAt, `addedAt of item ${key}`);
  const published = instant(stored.publishedAt, `publishedAt of item ${key}`);
  const json = JSON.stringify(stored);
  const writes = [
    { statement: upsertItem, params: [feedId, key, contentHash, stored.addedAt, placedAt, stored.publishedAt, json] },
    { statement: upsertByAdded, params: [feedId, added, placedAt, key, json] },
    { statement: upsertByPublished, params: [feedId, published, placedAt, key, json] },
  ];
  if (before && instant(before.publishedAt, 'stored publishedAt').getTime() !== published.getTime()) {
    writes.unshift({ statement: dropByPublished, params: [feedId, instant(before.publishedAt, 'stored publishedAt'), placedAt, key] });
  }
  return writes;
}
