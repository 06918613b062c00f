import type { Bundle, BundlePatch } from '../../domain/bundle.js';
import type { ItemSort } from '../../domain/feed.js';
import { noFilters, type KeepBlock } from '../../domain/keep-block.js';
import type { Page } from '../../domain/pagination.js';
import type { BundleLookup, BundleStore } from '../../ports/bundle-store.js';
import type { Db } from './database.js';

interface BundleRow {
  id: string;
  account_id: string;
  name: string;
  description: string;
  icon: string;
  sort: string;
  /** JSON KeepBlock; NULL on bundles made before filters existed. */
  filters: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function createEmbeddedBundleStore(db: Db): BundleStore {
  const byId = db.prepare<[string], BundleRow>('SELECT * FROM bundles WHERE id = ?');
  const members = db.prepare<[string], string>('SELECT feed_id FROM bundle_feeds WHERE bundle_id = ? ORDER BY position').pluck();
  const insert = db.prepare(
    `INSERT INTO bundles (id, account_id, name, description, icon, sort, filters, created_at, updated_at, deleted_at)
     VALUES (@id, @accountId, @name, @description, @icon, @sort, @filters, @createdAt, @updatedAt, NULL)`,
  );
  const addMember = db.prepare(
    `INSERT INTO bundle_feeds (bundle_id, feed_id, position)
     VALUES (?, ?, (SELECT coalesce(max(position), -1) + 1 FROM bundle_feeds WHERE bundle_id = ?))
     ON CONFLICT DO NOTHING`,
  );
  const removeMember = db.prepare('DELETE FROM bundle_feeds WHERE bundle_id = ? AND feed_id = ?');
  const bundlesOfFeed = db
    .prepare<[string, string], string>(
      'SELECT b.id FROM bundle_feeds m JOIN bundles b ON b.id = m.bundle_id WHERE m.feed_id = ? AND b.account_id = ?',
    )
    .pluck();
  const touch = db.prepare('UPDATE bundles SET updated_at = ? WHERE id = ?');
  const count = db.prepare<[string], number>('SELECT count(*) FROM bundles WHERE account_id = ? AND deleted_at IS NULL').pluck();
  const page = db.prepare<[string, number, number], BundleRow>(
    'SELECT * FROM bundles WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const patch = db.prepare(
    `UPDATE bundles SET name = coalesce(@name, name), description = coalesce(@description, description),
       icon = coalesce(@icon, icon), filters = coalesce(@filters, filters), updated_at = @updatedAt
     WHERE id = @id AND account_id = @accountId AND deleted_at IS NULL`,
  );
  const remove = db.prepare('UPDATE bundles SET deleted_at = ? WHERE id = ? AND account_id = ? AND deleted_at IS NULL');

  const toBundle = (row: BundleRow): Bundle => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    description: row.description,
    icon: row.icon,
    feedIds: members.all(row.id),
    sort: row.sort as ItemSort,
    filters: row.filters === null ? noFilters : (JSON.parse(row.filters) as KeepBlock),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  const owned = (accountId: string, id: string): Bundle | undefined => {
    const row = byId.get(id);
    return row && row.deleted_at === null && row.account_id === accountId ? toBundle(row) : undefined;
  };
  const insertWithMembers = db.transaction((bundle: Bundle) => {
    insert.run({ ...bundle, filters: JSON.stringify(bundle.filters) });
    for (const feedId of bundle.feedIds) addMember.run(bundle.id, feedId, bundle.id);
  });
  const changeMembers =
    (change: (bundleId: string) => void) =>
    (accountId: string, id: string, updatedAt: string): Bundle | undefined =>
      db.transaction(() => {
        if (!owned(accountId, id)) return undefined;
        change(id);
        touch.run(updatedAt, id);
        return owned(accountId, id);
      })();

  return {
    async insert(bundle) {
      insertWithMembers(bundle);
    },
    async get(accountId, id): Promise<BundleLookup> {
      const row = byId.get(id);
      if (!row || row.account_id !== accountId) return { state: 'missing' };
      return row.deleted_at === null ? { state: 'present', bundle: toBundle(row) } : { state: 'deleted' };
    },
    async getById(id) {
      const row = byId.get(id);
      return row && row.deleted_at === null ? toBundle(row) : undefined;
    },
    async list(accountId, { limit, offset }: Page) {
      return { total: count.get(accountId) ?? 0, bundles: page.all(accountId, limit, offset).map(toBundle) };
    },
    async update(accountId, id, changes: BundlePatch, updatedAt) {
      patch.run({
        id,
        accountId,
        updatedAt,
        name: changes.name ?? null,
        description: changes.description ?? null,
        icon: changes.icon ?? null,
        filters: changes.filters ? JSON.stringify(changes.filters) : null,
      });
      return owned(accountId, id);
    },
    async addFeed(accountId, id, feedId, updatedAt) {
      return changeMembers((bundleId) => addMember.run(bundleId, feedId, bundleId))(accountId, id, updatedAt);
    },
    async removeFeed(accountId, id, feedId, updatedAt) {
      return changeMembers((bundleId) => removeMember.run(bundleId, feedId))(accountId, id, updatedAt);
    },
    async removeFeedEverywhere(accountId, feedId, updatedAt) {
      db.transaction(() => {
        for (const bundleId of bundlesOfFeed.all(feedId, accountId)) {
          removeMember.run(bundleId, feedId);
          touch.run(updatedAt, bundleId);
        }
      })();
    },
    async markDeleted(accountId, id, deletedAt) {
      return remove.run(deletedAt, id, accountId).changes === 1;
    },
  };
}
