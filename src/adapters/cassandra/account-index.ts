import type { types } from 'cassandra-driver';
import type { Page } from '../../domain/pagination.js';
import { statement, type Cql } from './cql.js';
import { count, instant, text } from './row.js';

/** An account's live feeds, bundles or webhooks, newest first (feeds_by_account, bundles_by_account, webhooks_by_account). */
export interface AccountIndex {
  add(accountId: string, createdAt: string, listedAt: types.TimeUuid, id: string): Promise<void>;
  remove(accountId: string, createdAt: string, listedAt: types.TimeUuid): Promise<void>;
  /** The ids of one page and the exact number of live entries. */
  page(accountId: string, page: Page): Promise<{ total: number; ids: string[] }>;
  /** Every id, newest first. */
  all(accountId: string): Promise<string[]>;
}

type Indexed = ['feeds_by_account', 'feed_id'] | ['bundles_by_account', 'bundle_id'] | ['webhooks_by_account', 'webhook_id'];

export function createAccountIndex(cql: Cql, ...[table, idColumn]: Indexed): AccountIndex {
  const add = statement(`INSERT INTO {ks}.${table} (account_id, created_at, listed_at, ${idColumn}) VALUES (?, ?, ?, ?)`, true);
  const remove = statement(`DELETE FROM {ks}.${table} WHERE account_id = ? AND created_at = ? AND listed_at = ?`, true);
  // Exact by construction: an entry leaves the partition when its feed, bundle or webhook is deleted. A
  // count reads the account's partition, which stays small (one row per live entry).
  const total = statement(`SELECT count(*) FROM {ks}.${table} WHERE account_id = ?`, true);
  const top = statement(`SELECT ${idColumn} FROM {ks}.${table} WHERE account_id = ? LIMIT ?`, true);
  const every = statement(`SELECT ${idColumn} FROM {ks}.${table} WHERE account_id = ?`, true);
  return {
    async add(accountId, createdAt, listedAt, id) {
      await cql.execute(add, [accountId, instant(createdAt, 'createdAt'), listedAt, id]);
    },
    async remove(accountId, createdAt, listedAt) {
      await cql.execute(remove, [accountId, instant(createdAt, 'createdAt'), listedAt]);
    },
    async page(accountId, { limit, offset }) {
      const live = count(await cql.one(total, [accountId]));
      if (offset >= live) return { total: live, ids: [] };
      // CQL has no OFFSET: read the top offset + limit rows of the partition and drop the first.
      const rows = await cql.all(top, [accountId, Math.min(offset + limit, live)]);
      return { total: live, ids: rows.slice(offset).map((row) => text(row, idColumn)) };
    },
    async all(accountId) {
      return (await cql.all(every, [accountId])).map((row) => text(row, idColumn));
    },
  };
}
