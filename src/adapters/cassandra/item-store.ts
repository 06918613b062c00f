import type { types } from 'cassandra-driver';
import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import type { ItemArticle } from '../../domain/item-article.js';
import type { KnownItem } from '../../domain/item-diff.js';
import type { StoredItem } from '../../domain/stored-item.js';
import type { EventOutbox } from '../../ports/event-outbox.js';
import type { ItemStore } from '../../ports/item-store.js';
import { statement, type Cql } from './cql.js';
import { itemRowWrite, orderWrites, placeItem, type Placed, type PlacedItem } from './item-writes.js';
import { int, optionalText, text, timeUuid } from './row.js';

const known = statement(
  'SELECT key, content_hash, added_at, source_hash, version, pending, settled FROM {ks}.items WHERE feed_id = ?',
  true,
);
const placed = statement('SELECT key, added_at, position, published_at FROM {ks}.items WHERE feed_id = ? AND key IN ?', true);
const some = statement('SELECT key, item, position FROM {ks}.items WHERE feed_id = ? AND key IN ?', true);
const byAdded = statement('SELECT item FROM {ks}.items_by_added WHERE feed_id = ? LIMIT ?', true);
const byPublished = statement('SELECT item FROM {ks}.items_by_published WHERE feed_id = ? LIMIT ?', true);
const articlesOf = statement('SELECT key, article FROM {ks}.item_articles WHERE feed_id = ? AND key IN ?', true);
const allArticles = statement('SELECT key, article FROM {ks}.item_articles WHERE feed_id = ?', true);
const saveArticle = statement('UPDATE {ks}.item_articles SET article = ?, saved = now() WHERE feed_id = ? AND key = ?', true);
// A scan of partition keys only: Cassandra reads no article to answer it.
const articleFeeds = statement('SELECT DISTINCT feed_id FROM {ks}.item_articles', true);
const articlesSaved = statement('SELECT saved FROM {ks}.item_articles WHERE feed_id = ? LIMIT 1', true);
// `IF version = null` holds for a feed never committed to (version 0), rows or not.
const fence = statement('UPDATE {ks}.items SET version = ?, pending = ? WHERE feed_id = ? IF version = ?', false);
// A plain write to a cell no conditional write touches: Paxos and plain timestamps never race on it.
const settle = statement('UPDATE {ks}.items SET settled = ? WHERE feed_id = ?', true);

/** Keys per `IN` read and rows per unconditional batch: well under Cassandra's batch and IN warnings. */
const chunkSize = 50;

const chunks = <T>(values: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(values.length / chunkSize) }, (_, i) => values.slice(i * chunkSize, (i + 1) * chunkSize));

const parse = (json: string): StoredItem => JSON.parse(json) as StoredItem;

/** What a commit still has to do once its conditional batch applied (see schema/cql/008-item-versions.cql). */
interface Pending {
  version: number;
  keys: string[];
  moved: { key: string; publishedAt: string; position: number }[];
  event?: FeedEventEnvelope;
}

const optionalInt = (row: types.Row, name: string): number | null => (row.get(name) === null ? null : int(row, name));

/** Items repeated in one commit count once, at their first position with their last content. */
function dedupe(feedId: string, items: readonly StoredItem[]): Map<string, { item: StoredItem; position: number }> {
  const entries = new Map<string, { item: StoredItem; position: number }>();
  items.forEach((item, position) => {
    if (item.feedId !== feedId)
      throw new Error(`Expected every item committed to feed ${feedId} to belong to it, got one of ${item.feedId}`);
    entries.set(item.key, { item, position: entries.get(item.key)?.position ?? position });
  });
  return entries;
}

export function createCassandraItemStore(cql: Cql, outbox: EventOutbox): ItemStore {
  /** The items with their articles, which live in their own table (schema/cql/013-item-articles.cql). */
  const withArticles = async (feedId: string, items: StoredItem[]): Promise<StoredItem[]> => {
    const found = new Map<string, ItemArticle>();
    for (const part of chunks(items.map((item) => item.key))) {
      for (const row of await cql.all(articlesOf, [feedId, part]))
        found.set(text(row, 'key'), JSON.parse(text(row, 'article')) as ItemArticle);
    }
    return items.map((item) => {
      const article = found.get(item.key);
      return article ? { ...item, article } : item;
    });
  };

  const placedOf = async (feedId: string, keys: readonly string[]): Promise<Map<string, Placed>> => {
    const found = new Map<string, Placed>();
    for (const part of chunks(keys)) {
      for (const row of await cql.all(placed, [feedId, part])) {
        found.set(text(row, 'key'), {
          addedAt: text(row, 'added_at'),
          position: int(row, 'position'),
          publishedAt: text(row, 'published_at'),
        });
      }
    }
    return found;
  };

  /** The committed rows of `pending`, read back (its committer died before it finished). */
  const reread = async (feedId: string, pending: Pending): Promise<PlacedItem[]> => {
    const moved = new Map(pending.moved.map((entry) => [entry.key, entry]));
    const rows: PlacedItem[] = [];
    for (const part of chunks(pending.keys)) {
      for (const row of await cql.all(some, [feedId, part])) {
        const item = parse(text(row, 'item'));
        const from = moved.get(item.key);
        rows.push({
          item,
          position: int(row, 'position'),
          ...(from ? { movedFrom: { publishedAt: from.publishedAt, position: from.position } } : {}),
        });
      }
    }
    return rows;
  };

  /** Everything of a commit outside `items`; idempotent, so a repair may repeat a finished one. */
  const finish = async (feedId: string, pending: Pending, items: readonly PlacedItem[]): Promise<void> => {
    for (const part of chunks(items)) await cql.batch(part.flatMap(orderWrites));
    if (pending.event) await outbox.save(pending.event);
    await cql.execute(settle, [pending.version, feedId]);
  };

  return {
    async known(feedId) {
      const items = new Map<string, KnownItem>();
      let version = 0;
      let pending: string | null = null;
      let settled = 0;
      for (const row of await cql.all(known, [feedId])) {
        version = optionalInt(row, 'version') ?? 0;
        pending = optionalText(row, 'pending');
        settled = optionalInt(row, 'settled') ?? 0;
        // A partition holding only its static columns answers one row with no key.
        const key = optionalText(row, 'key');
        if (key === null) continue;
        const item: KnownItem = { contentHash: text(row, 'content_hash'), addedAt: text(row, 'added_at') };
        const sourceHash = optionalText(row, 'source_hash');
        if (sourceHash !== null) item.sourceHash = sourceHash;
        items.set(key, item);
      }
      if (pending !== null) {
        const left = JSON.parse(pending) as Pending;
        if (left.version > settled) await finish(feedId, left, await reread(feedId, left));
      }
      return { version, items };
    },
    async getMany(feedId, keys) {
      const found = new Map<string, StoredItem>();
      for (const part of chunks(keys)) {
        for (const row of await cql.all(some, [feedId, part])) found.set(text(row, 'key'), parse(text(row, 'item')));
      }
      return withArticles(
        feedId,
        keys.flatMap((key) => found.get(key) ?? []),
      );
    },
    async commit(feedId, version, items, event) {
      const entries = dedupe(feedId, items);
      const before = await placedOf(feedId, [...entries.keys()]);
      // Every write is prepared before anything is sent: a bad item commits nothing.
      const rows = [...entries.values()].map(({ item, position }) => placeItem(item, position, before.get(item.key)));
      const pending: Pending = {
        version: version + 1,
        keys: rows.map((row) => row.item.key),
        moved: rows.flatMap((row) => (row.movedFrom ? [{ key: row.item.key, ...row.movedFrom }] : [])),
        ...(event ? { event } : {}),
      };
      // One partition of one table: Cassandra applies the fence, the pending work and every item
      // row together, or nothing when another refresh moved the version first.
      const applied = await cql.appliedBatch([
        { statement: fence, params: [version + 1, JSON.stringify(pending), feedId, version === 0 ? null : version] },
        ...rows.map(itemRowWrite),
      ]);
      if (!applied) return false;
      await finish(feedId, pending, rows);
      return true;
    },
    async list(feedId, sort, limit) {
      const rows = await cql.all(sort === 'date' ? byPublished : byAdded, [feedId, limit]);
      return withArticles(
        feedId,
        rows.map((row) => parse(text(row, 'item'))),
      );
    },
    async saveArticle(feedId, key, article) {
      await cql.execute(saveArticle, [JSON.stringify(article), feedId, key]);
    },
    async articlesStamp(feedId) {
      const row = await cql.one(articlesSaved, [feedId]);
      // A partition without articles answers no row; one of only static columns is not possible here.
      return row && row.get('saved') !== null ? timeUuid(row, 'saved').toString() : '';
    },
    async articles(feedId) {
      const rows = await cql.all(allArticles, [feedId]);
      return new Map(rows.map((row) => [text(row, 'key'), JSON.parse(text(row, 'article')) as ItemArticle]));
    },
    async feedsWithArticles() {
      return new Set((await cql.all(articleFeeds, [])).map((row) => text(row, 'feed_id')));
    },
    async lastAddedAt(feedId) {
      const row = await cql.one(byAdded, [feedId, 1]);
      return row ? parse(text(row, 'item')).addedAt : undefined;
    },
  };
}
