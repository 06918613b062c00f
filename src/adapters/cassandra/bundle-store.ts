import { types } from 'cassandra-driver';
import type { Bundle, BundlePatch } from '../../domain/bundle.js';
import type { BundleLookup, BundleStore } from '../../ports/bundle-store.js';
import { createAccountIndex } from './account-index.js';
import { createBundleMembers } from './bundle-members.js';
import { bundleColumns, bundleValues, toBundleRow, type BundleRow } from './bundle-row.js';
import { statement, type Cql } from './cql.js';

const placeholders = bundleColumns
  .split(',')
  .map(() => '?')
  .join(', ');
// Conditional writes only on `bundles`, as on `feeds` (see feed-store.ts for the conditions).
const insert = statement(`INSERT INTO {ks}.bundles (${bundleColumns}) VALUES (${placeholders}) IF NOT EXISTS`, false);
const byId = statement(`SELECT ${bundleColumns} FROM {ks}.bundles WHERE id = ?`, true);
const patch = statement(
  'UPDATE {ks}.bundles SET name = ?, description = ?, icon = ?, filters = ?, updated_at = ? WHERE id = ? IF account_id = ? AND deleted_at = null',
  true,
);
const touch = statement('UPDATE {ks}.bundles SET updated_at = ? WHERE id = ? IF account_id = ? AND deleted_at = null', true);
const remove = statement('UPDATE {ks}.bundles SET deleted_at = ? WHERE id = ? IF account_id = ? AND deleted_at = null', false);

const leave = (value: string | undefined): unknown => value ?? types.unset;

export function createCassandraBundleStore(cql: Cql): BundleStore {
  const index = createAccountIndex(cql, 'bundles_by_account', 'bundle_id');
  const members = createBundleMembers(cql);
  const read = async (id: string): Promise<BundleRow | undefined> => {
    const row = await cql.one(byId, [id]);
    return row ? toBundleRow(row) : undefined;
  };
  const withMembers = async (row: BundleRow): Promise<Bundle> => ({ ...row.bundle, feedIds: await members.of(row.bundle.id) });
  const live = async (id: string): Promise<Bundle | undefined> => {
    const row = await read(id);
    return row && row.deletedAt === null ? withMembers(row) : undefined;
  };
  const owned = async (accountId: string, id: string): Promise<Bundle | undefined> => {
    const bundle = await live(id);
    return bundle?.accountId === accountId ? bundle : undefined;
  };
  // The conditional touch is also the check that the bundle is the account's and live.
  const changeMembers = async (accountId: string, id: string, updatedAt: string, change: () => Promise<void>) => {
    if (!(await cql.applied(touch, [updatedAt, id, accountId]))) return undefined;
    await change();
    return owned(accountId, id);
  };

  return {
    async insert(bundle) {
      const listedAt = types.TimeUuid.now();
      if (!(await cql.applied(insert, bundleValues(bundle, listedAt)))) throw new Error(`A bundle with id \`${bundle.id}\` already exists`);
      await members.add(bundle.accountId, bundle.id, bundle.feedIds);
      await index.add(bundle.accountId, bundle.createdAt, listedAt, bundle.id);
    },
    async get(accountId, id): Promise<BundleLookup> {
      const row = await read(id);
      if (!row || row.bundle.accountId !== accountId) return { state: 'missing' };
      return row.deletedAt === null ? { state: 'present', bundle: await withMembers(row) } : { state: 'deleted' };
    },
    getById: live,
    async list(accountId, page) {
      const { total, ids } = await index.page(accountId, page);
      const bundles = await Promise.all(ids.map(live));
      return { total, bundles: bundles.filter((bundle): bundle is Bundle => bundle !== undefined) };
    },
    async update(accountId, id, changes: BundlePatch, updatedAt) {
      const filters = changes.filters ? JSON.stringify(changes.filters) : undefined;
      const params = [leave(changes.name), leave(changes.description), leave(changes.icon), leave(filters), updatedAt, id, accountId];
      return (await cql.applied(patch, params)) ? owned(accountId, id) : undefined;
    },
    async addFeed(accountId, id, feedId, updatedAt) {
      return changeMembers(accountId, id, updatedAt, () => members.add(accountId, id, [feedId]));
    },
    async removeFeed(accountId, id, feedId, updatedAt) {
      return changeMembers(accountId, id, updatedAt, () => members.remove(accountId, id, feedId));
    },
    async removeFeedEverywhere(accountId, feedId, updatedAt) {
      for (const bundleId of await members.holding(accountId, feedId)) {
        // A deleted bundle is not touched (the condition fails) but still lets the feed go.
        await cql.applied(touch, [updatedAt, bundleId, accountId]);
        await members.remove(accountId, bundleId, feedId);
      }
    },
    async markDeleted(accountId, id, deletedAt) {
      const row = await read(id);
      if (!row || row.bundle.accountId !== accountId) return false;
      const deleted = row.deletedAt === null && (await cql.applied(remove, [deletedAt, id, accountId]));
      // Also when it was already deleted: finishes a delete that stopped before leaving the index.
      await index.remove(accountId, row.bundle.createdAt, row.listedAt);
      return deleted;
    },
  };
}
