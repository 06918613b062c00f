import type { ItemSort } from '../../domain/feed.js';
import type { KnownItem } from '../../domain/item-diff.js';
import type { ParsedItem } from '../../domain/item.js';
import type { StoredItem } from '../../domain/stored-item.js';
import type { ItemStore } from '../../ports/item-store.js';
import type { Db } from './database.js';

interface ItemRow {
  feed_id: string;
  key: string;
  content_hash: string;
  added_at: string;
  published_at: string;
  data: string;
}

const toItem = (row: ItemRow): StoredItem => ({
  ...(JSON.parse(row.data) as ParsedItem),
  feedId: row.feed_id,
  key: row.key,
  contentHash: row.content_hash,
  addedAt: row.added_at,
  publishedAt: row.published_at,
});

const toData = (item: StoredItem): string => {
  const { feedId: _feedId, key: _key, contentHash: _hash, addedAt: _added, publishedAt: _published, ...parsed } = item;
  return JSON.stringify(parsed);
};

export function createEmbeddedItemStore(db: Db): ItemStore {
  const known = db.prepare<[string], { key: string; content_hash: string; added_at: string }>(
    'SELECT key, content_hash, added_at FROM items WHERE feed_id = ?',
  );
  // A changed item keeps its place: added_at and position are written only on first insert.
  const upsert = db.prepare(
    `INSERT INTO items (feed_id, key, content_hash, added_at, position, published_at, data)
     VALUES (@feedId, @key, @contentHash, @addedAt, @position, @publishedAt, @data)
     ON CONFLICT (feed_id, key) DO UPDATE SET content_hash = excluded.content_hash,
       published_at = excluded.published_at, data = excluded.data`,
  );
  const byAdded = db.prepare<[string, number], ItemRow>(
    'SELECT * FROM items WHERE feed_id = ? ORDER BY added_at DESC, position ASC LIMIT ?',
  );
  const byDate = db.prepare<[string, number], ItemRow>(
    'SELECT * FROM items WHERE feed_id = ? ORDER BY published_at DESC, position ASC LIMIT ?',
  );
  const one = db.prepare<[string, string], ItemRow>('SELECT * FROM items WHERE feed_id = ? AND key = ?');
  const lastAdded = db.prepare<[string], string | null>('SELECT max(added_at) FROM items WHERE feed_id = ?').pluck();
  const upsertAll = db.transaction((items: readonly StoredItem[]) => {
    items.forEach((item, position) => upsert.run({ ...item, position, data: toData(item) }));
  });

  return {
    async known(feedId) {
      const map = new Map<string, KnownItem>();
      for (const row of known.all(feedId)) map.set(row.key, { contentHash: row.content_hash, addedAt: row.added_at });
      return map;
    },
    async getMany(feedId, keys) {
      return keys.flatMap((key) => {
        const row = one.get(feedId, key);
        return row ? [toItem(row)] : [];
      });
    },
    async upsert(items) {
      upsertAll(items);
    },
    async list(feedId, sort: ItemSort, limit) {
      return (sort === 'date' ? byDate : byAdded).all(feedId, limit).map(toItem);
    },
    async lastAddedAt(feedId) {
      return lastAdded.get(feedId) ?? undefined;
    },
  };
}
