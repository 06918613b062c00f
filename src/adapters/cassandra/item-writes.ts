import type { StoredItem } from '../../domain/stored-item.js';
import { statement, type Params, type Statement } from './cql.js';
import { instant } from './row.js';

/** What `items` already holds of an item: where it sits in both orders. */
export interface Placed {
  addedAt: string;
  position: number;
  publishedAt: string;
}

/** An item as it is stored: with the added time and position it was first stored with. */
export interface PlacedItem {
  item: StoredItem;
  position: number;
  /** Its row in the date order before this write, when the write moves it. */
  movedFrom?: { publishedAt: string; position: number };
}

type Write = { statement: Statement; params: Params };

const upsertItem = statement(
  'INSERT INTO {ks}.items (feed_id, key, content_hash, added_at, position, published_at, item, source_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  true,
);
const upsertByAdded = statement('INSERT INTO {ks}.items_by_added (feed_id, added_at, position, key, item) VALUES (?, ?, ?, ?, ?)', true);
const upsertByPublished = statement(
  'INSERT INTO {ks}.items_by_published (feed_id, published_at, position, key, item) VALUES (?, ?, ?, ?, ?)',
  true,
);
const dropByPublished = statement(
  'DELETE FROM {ks}.items_by_published WHERE feed_id = ? AND published_at = ? AND position = ? AND key = ?',
  true,
);

const requireText = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || value === '') throw new Error(`Expected ${what} to be a non-empty string, got \`${String(value)}\``);
  return value;
};

/**
 * Checks an item and places it (so a bad item in a commit writes nothing): a known item keeps the
 * added time and position it was first stored with (the embedded store's rule), and its row in
 * the date order moves when its date changed.
 */
export function placeItem(withArticle: StoredItem, position: number, before: Placed | undefined): PlacedItem {
  // The article and its shown form live beside the item (item_articles), never in its JSON.
  const { article: _article, fullText: _fullText, ...item } = withArticle;
  requireText(item.feedId, 'feedId');
  const key = requireText(item.key, 'key');
  requireText(item.contentHash, 'contentHash');
  const stored: StoredItem = { ...item, addedAt: before?.addedAt ?? item.addedAt };
  instant(stored.addedAt, `addedAt of item ${key}`);
  const published = instant(stored.publishedAt, `publishedAt of item ${key}`);
  const placed: PlacedItem = { item: stored, position: before?.position ?? position };
  if (before && instant(before.publishedAt, 'stored publishedAt').getTime() !== published.getTime()) {
    placed.movedFrom = { publishedAt: before.publishedAt, position: before.position };
  }
  return placed;
}

/** The item's row in `items`: written in the conditional batch of a commit. */
export function itemRowWrite({ item, position }: PlacedItem): Write {
  return {
    statement: upsertItem,
    params: [
      item.feedId,
      item.key,
      item.contentHash,
      item.addedAt,
      position,
      item.publishedAt,
      JSON.stringify(item),
      item.source_hash ?? null,
    ],
  };
}

/**
 * The item's rows in the two orders. The old date row is deleted only when the date changed: a
 * delete and an insert of one row in one batch share a timestamp, and the delete would win.
 */
export function orderWrites({ item, position, movedFrom }: PlacedItem): Write[] {
  const json = JSON.stringify(item);
  const writes: Write[] = [
    { statement: upsertByAdded, params: [item.feedId, instant(item.addedAt, 'addedAt'), position, item.key, json] },
    { statement: upsertByPublished, params: [item.feedId, instant(item.publishedAt, 'publishedAt'), position, item.key, json] },
  ];
  if (movedFrom) {
    writes.unshift({
      statement: dropByPublished,
      params: [item.feedId, instant(movedFrom.publishedAt, 'stored publishedAt'), movedFrom.position, item.key],
    });
  }
  return writes;
}
