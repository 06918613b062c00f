import { setImmediate as nextTurn } from 'node:timers/promises';
import { feedSettingsOf, type Feed, type FeedPatch, type FeedSettings, type FetchState } from '../../domain/feed.js';
import type { Page } from '../../domain/pagination.js';
import type { FeedLookup, FeedStore } from '../../ports/feed-store.js';
import type { Db } from './database.js';

interface FeedRow {
  id: string;
  account_id: string;
  title: string;
  description: string;
  icon: string;
  source_url: string;
  fetch_url: string;
  link: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  settings: string;
  fetch_state: string;
}

const toFeed = (row: FeedRow): Feed => ({
  id: row.id,
  accountId: row.account_id,
  title: row.title,
  description: row.description,
  icon: row.icon,
  sourceUrl: row.source_url,
  fetchUrl: row.fetch_url,
  link: row.link,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  settings: feedSettingsOf(JSON.parse(row.settings) as Partial<FeedSettings>),
  fetch: JSON.parse(row.fetch_state) as FetchState,
});

export function createEmbeddedFeedStore(db: Db): FeedStore {
  const byId = db.prepare<[string], FeedRow>('SELECT * FROM feeds WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO feeds (id, account_id, title, description, icon, source_url, fetch_url, link, created_at, updated_at, deleted_at, settings, fetch_state)
     VALUES (@id, @accountId, @title, @description, @icon, @sourceUrl, @fetchUrl, @link, @createdAt, @updatedAt, NULL, @settings, @fetch)`,
  );
  const count = db.prepare<[string], number>('SELECT count(*) FROM feeds WHERE account_id = ? AND deleted_at IS NULL').pluck();
  const page = db.prepare<[string, number, number], FeedRow>(
    'SELECT * FROM feeds WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const patch = db.prepare(
    `UPDATE feeds SET title = coalesce(@title, title), description = coalesce(@description, description),
       icon = coalesce(@icon, icon), updated_at = @updatedAt
     WHERE id = @id AND account_id = @accountId AND deleted_at IS NULL`,
  );
  const settings = db.prepare('UPDATE feeds SET settings = ?, updated_at = ? WHERE id = ? AND account_id = ? AND deleted_at IS NULL');
  const fetchState = db.prepare('UPDATE feeds SET fetch_state = ?, fetch_url = ? WHERE id = ? AND deleted_at IS NULL');
  const remove = db.prepare('UPDATE feeds SET deleted_at = ? WHERE id = ? AND account_id = ? AND deleted_at IS NULL');
  // By primary key from where the last page ended: no cursor stays open across the walk's awaits
  // (SQLite's connection is busy while one is), and each page is one index range.
  const due = db.prepare<[string, number], { id: string; settings: string; fetch_state: string }>(
    'SELECT id, settings, fetch_state FROM feeds WHERE deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?',
  );

  const live = (id: string): Feed | undefined => {
    const row = byId.get(id);
    return row && row.deleted_at === null ? toFeed(row) : undefined;
  };
  const owned = (accountId: string, id: string): Feed | undefined => {
    const feed = live(id);
    return feed?.accountId === accountId ? feed : undefined;
  };

  return {
    async insert(feed) {
      insert.run({ ...feed, settings: JSON.stringify(feed.settings), fetch: JSON.stringify(feed.fetch) });
    },
    async get(accountId, id): Promise<FeedLookup> {
      const row = byId.get(id);
      if (!row || row.account_id !== accountId) return { state: 'missing' };
      return row.deleted_at === null ? { state: 'present', feed: toFeed(row) } : { state: 'deleted' };
    },
    async getById(id) {
      return live(id);
    },
    async list(accountId, { limit, offset }: Page) {
      return { total: count.get(accountId) ?? 0, feeds: page.all(accountId, limit, offset).map(toFeed) };
    },
    async update(accountId, id, changes: FeedPatch, updatedAt) {
      patch.run({
        id,
        accountId,
        updatedAt,
        title: changes.title ?? null,
        description: changes.description ?? null,
        icon: changes.icon ?? null,
      });
      return owned(accountId, id);
    },
    async updateSettings(accountId, id, value: FeedSettings, updatedAt) {
      settings.run(JSON.stringify(value), updatedAt, id, accountId);
      return owned(accountId, id);
    },
    async saveFetchState(id, state, fetchUrl) {
      fetchState.run(JSON.stringify(state), fetchUrl, id);
    },
    async markDeleted(accountId, id, deletedAt) {
      return remove.run(deletedAt, id, accountId).changes === 1;
    },
    async *dueFeeds(pageSize) {
      for (let after = ''; ;) {
        const rows = due.all(after, pageSize);
        if (rows.length > 0)
          yield rows.map((row) => ({
            id: row.id,
            settings: feedSettingsOf(JSON.parse(row.settings) as Partial<FeedSettings>),
            fetch: JSON.parse(row.fetch_state) as FetchState,
          }));
        const last = rows.at(-1);
        if (rows.length < pageSize || last === undefined) return;
        after = last.id;
        // SQLite answers at once: without a turn of the event loop between pages, a walk over
        // 100,000 feeds held the loop for most of a second, and a SIGTERM or a request meanwhile waited.
        await nextTurn();
      }
    },
  };
}
