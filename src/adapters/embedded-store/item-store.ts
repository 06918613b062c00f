import type { ItemSort } from '../../domain/feed.js';
import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import type { KnownItem } from '../../domain/item-diff.js';
import type { ItemArticle } from '../../domain/item-article.js';
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
  source_hash: string | null;
  /** The item's article (item_articles.data), when it has one. */
  article: string | null;
}

const toItem = (row: ItemRow): StoredItem => ({
  ...(JSON.parse(row.data) as ParsedItem),
  ...(row.source_hash === null ? {} : { source_hash: row.source_hash }),
  feedId: row.feed_id,
  key: row.key,
  contentHash: row.content_hash,
  addedAt: row.added_at,
  publishedAt: row.published_at,
  ...(row.article === null ? {} : { article: JSON.parse(row.article) as ItemArticle }),
});

// The columns hold the rest: `data` is the item's own fields; the article and its shown form live
// beside the item, never in its data.
const toData = (item: StoredItem): string => {
  const {
    feedId: _feedId,
    key: _key,
    contentHash: _hash,
    addedAt: _added,
    publishedAt: _published,
    source_hash: _source,
    article: _article,
    fullText: _fullText,
    ...parsed
  } = item;
  return JSON.stringify(parsed);
};

/**
 * The embedded item store. `recordEvent` writes an event to the outbox synchronously: commit calls
 * it inside the transaction that stores the event's items and moves the feed's version.
 */
export function createEmbeddedItemStore(db: Db, recordEvent: (envelope: FeedEventEnvelope) => void): ItemStore {
  const version = db.prepare<[string], number>('SELECT version FROM item_versions WHERE feed_id = ?').pluck();
  const setVersion = db.prepare(
    'INSERT INTO item_versions (feed_id, version) VALUES (?, ?) ON CONFLICT (feed_id) DO UPDATE SET version = excluded.version',
  );
  const known = db.prepare<[string], { key: string; content_hash: string; added_at: string; source_hash: string | null }>(
    'SELECT key, content_hash, added_at, source_hash FROM items WHERE feed_id = ?',
  );
  // A changed item keeps its place: added_at and position are written only on first insert.
  const upsert = db.prepare(
    `INSERT INTO items (feed_id, key, content_hash, added_at, position, published_at, data, source_hash)
     VALUES (@feedId, @key, @contentHash, @addedAt, @position, @publishedAt, @data, @sourceHash)
     ON CONFLICT (feed_id, key) DO UPDATE SET content_hash = excluded.content_hash,
       published_at = excluded.published_at, data = excluded.data, source_hash = excluded.source_hash`,
  );
  const withArticle = 'SELECT items.*, item_articles.data AS article FROM items LEFT JOIN item_articles USING (feed_id, key)';
  const byAdded = db.prepare<[string, number], ItemRow>(`${withArticle} WHERE feed_id = ? ORDER BY added_at DESC, position ASC LIMIT ?`);
  const byDate = db.prepare<[string, number], ItemRow>(`${withArticle} WHERE feed_id = ? ORDER BY published_at DESC, position ASC LIMIT ?`);
  const one = db.prepare<[string, string], ItemRow>(`${withArticle} WHERE feed_id = ? AND key = ?`);
  const upsertArticle = db.prepare(
    'INSERT INTO item_articles (feed_id, key, data) VALUES (?, ?, ?) ON CONFLICT (feed_id, key) DO UPDATE SET data = excluded.data',
  );
  const bumpArticles = db.prepare(
    'INSERT INTO article_versions (feed_id, version) VALUES (?, 1) ON CONFLICT (feed_id) DO UPDATE SET version = version + 1',
  );
  const articlesVersion = db.prepare<[string], number>('SELECT version FROM article_versions WHERE feed_id = ?').pluck();
  const saveArticle = db.transaction((feedId: string, key: string, data: string) => {
    upsertArticle.run(feedId, key, data);
    bumpArticles.run(feedId);
  });
  const articles = db.prepare<[string], { key: string; data: string }>('SELECT key, data FROM item_articles WHERE feed_id = ?');
  const articleFeeds = db.prepare<[], string>('SELECT DISTINCT feed_id FROM item_articles').pluck();
  const lastAdded = db.prepare<[string], string | null>('SELECT max(added_at) FROM items WHERE feed_id = ?').pluck();
  // better-sqlite3 runs a transaction synchronously: nothing else reads or writes in between, and
  // a throw rolls back all of it.
  const commit = db.transaction(
    (feedId: string, expected: number, items: readonly StoredItem[], event: FeedEventEnvelope | undefined): boolean => {
      if ((version.get(feedId) ?? 0) !== expected) return false;
      items.forEach((item, position) => {
        if (item.feedId !== feedId)
          throw new Error(`Expected every item committed to feed ${feedId} to belong to it, got one of ${item.feedId}`);
        upsert.run({ ...item, position, data: toData(item), sourceHash: item.source_hash ?? null });
      });
      if (event) recordEvent(event);
      setVersion.run(feedId, expected + 1);
      return true;
    },
  );
  const snapshot = db.transaction((feedId: string) => {
    const items = new Map<string, KnownItem>();
    for (const row of known.all(feedId)) {
      const item: KnownItem = { contentHash: row.content_hash, addedAt: row.added_at };
      if (row.source_hash !== null) item.sourceHash = row.source_hash;
      items.set(row.key, item);
    }
    return { version: version.get(feedId) ?? 0, items };
  });

  return {
    async known(feedId) {
      return snapshot(feedId);
    },
    async getMany(feedId, keys) {
      return keys.flatMap((key) => {
        const row = one.get(feedId, key);
        return row ? [toItem(row)] : [];
      });
    },
    async commit(feedId, expected, items, event) {
      return commit(feedId, expected, items, event);
    },
    async list(feedId, sort: ItemSort, limit) {
      return (sort === 'date' ? byDate : byAdded).all(feedId, limit).map(toItem);
    },
    async saveArticle(feedId, key, article) {
      saveArticle(feedId, key, JSON.stringify(article));
    },
    async articlesStamp(feedId) {
      return String(articlesVersion.get(feedId) ?? '');
    },
    async articles(feedId) {
      return new Map(articles.all(feedId).map((row) => [row.key, JSON.parse(row.data) as ItemArticle]));
    },
    async feedsWithArticles() {
      return new Set(articleFeeds.all());
    },
    async lastAddedAt(feedId) {
      return lastAdded.get(feedId) ?? undefined;
    },
  };
}
