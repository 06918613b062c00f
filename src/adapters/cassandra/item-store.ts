import type { KnownItem } from '../../domain/item-diff.js';
import type { StoredItem } from '../../domain/stored-item.js';
import type { ItemStore } from '../../ports/item-store.js';
import { statement, type Cql } from './cql.js';
import { itemWrites, type Placed } from './item-writes.js';
import { int, text } from './row.js';

const known = statement('SELECT key, content_hash, added_at FROM {ks}.items WHERE feed_id = ?', true);
const placed = statement('SELECT key, added_at, position, published_at FROM {ks}.items WHERE feed_id = ? AND key IN ?', true);
const some = statement('SELECT key, item FROM {ks}.items WHERE feed_id = ? AND key IN ?', true);
const byAdded = statement('SELECT item FROM {ks}.items_by_added WHERE feed_id = ? LIMIT ?', true);
const byPublished = statement('SELECT item FROM {ks}.items_by_published WHERE feed_id = ? LIMIT ?', true);

/** Keys per `IN` read and items per batch: well under Cassandra's batch and IN warnings. */
const chunkSize = 50;

const chunks = <T>(values: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(values.length / chunkSize) }, (_, i) => values.slice(i * chunkSize, (i + 1) * chunkSize));

const parse = (json: string): StoredItem => JSON.parse(json) as StoredItem;

/** Items repeated in one call count once, at their first position with their last content. */
function groupByFeed(items: readonly StoredItem[]): Map<string, Map<string, { item: StoredItem; position: number }>> {
  const feeds = new Map<string, Map<string, { item: StoredItem; position: number }>>();
  items.forEach((item, position) => {
    const feed = feeds.get(item.feedId) ?? new Map<string, { item: StoredItem; position: number }>();
    feeds.set(item.feedId, feed);
    feed.set(item.key, { item, position: feed.get(item.key)?.position ?? position });
  });
  return feeds;
}

export function createCassandraItemStore(cql: Cql): ItemStore {
  const placedOf = async (feedId: string, keys: readonly string[]): Promise<Map<string, Placed>> => {
    const found = new Map<string, Placed>();
    for (const part of chunks(keys)) {
      for (const row of await cql.all(placed, [feedId, part])) {
        found.set(text(row, 'key'), { addedAt: text(row, 'added_at'), position: int(row, 'position'), publishedAt: text(row, 'published_at') });
      }
    }
    return found;
  };

  return {
    async known(feedId) {
      const map = new Map<string, KnownItem>();
      for (const row of await cql.all(known, [feedId])) map.set(text(row, 'key'), { contentHash: text(row, 'content_hash'), addedAt: text(row, 'added_at') });
      return map;
    },
    async getMany(feedId, keys) {
      const found = new Map<string, StoredItem>();
      for (const part of chunks(keys)) {
        for (const row of await cql.all(some, [feedId, part])) found.set(text(row, 'key'), parse(text(row, 'item')));
      }
      return keys.flatMap((key) => found.get(key) ?? []);
    },
    async upsert(items) {
      // Read, then write: one refresh actor per feed (DESIGN.md "Feed actor") means no other
      // writer moves an item between the two. Every write is prepared before the first is sent.
      const plans = [];
      for (const [feedId, entries] of groupByFeed(items)) {
        const before = await placedOf(feedId, [...entries.keys()]);
        const writes = [...entries.values()].map(({ item, position }) => itemWrites(item, position, before.get(item.key)));
        plans.push(...chunks(writes).map((part) => part.flat()));
      }
      // Each batch holds one feed's rows: one partition key, one mutation, applied atomically.
      for (const batch of plans) await cql.batch(batch);
    },
    async list(feedId, sort, limit) {
      const rows = await cql.all(sort === 'date' ? byPublished : byAdded, [feedId, limit]);
      return rows.map((row) => parse(text(row, 'item')));
    },
    async lastAddedAt(feedId) {
      const row = await cql.one(byAdded, [feedId, 1]);
      return row ? parse(text(row, 'item')).addedAt : undefined;
    },
  };
}
