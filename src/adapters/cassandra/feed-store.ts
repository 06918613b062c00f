import { types } from 'cassandra-driver';
import { feedSettingsOf, type Feed, type FeedPatch, type FeedSettings, type FetchState } from '../../domain/feed.js';
import type { FeedLookup, FeedStore } from '../../ports/feed-store.js';
import { createAccountIndex } from './account-index.js';
import { statement, type Cql } from './cql.js';
import { feedColumns, feedValues, toFeedRow, type FeedRow } from './feed-row.js';
import { optionalText, text } from './row.js';

const placeholders = feedColumns
  .split(',')
  .map(() => '?')
  .join(', ');
// Every write to `feeds` but the fetch state is conditional (see schema/cql/001-init.cql).
// `account_id = ?` also fails on a row that does not exist, where `deleted_at = null` alone would
// hold and create one.
const insert = statement(`INSERT INTO {ks}.feeds (${feedColumns}) VALUES (${placeholders}) IF NOT EXISTS`, false);
const byId = statement(`SELECT ${feedColumns} FROM {ks}.feeds WHERE id = ?`, true);
// Setting the same values again is harmless, so the edits below may be retried.
const patch = statement(
  'UPDATE {ks}.feeds SET title = ?, description = ?, icon = ?, updated_at = ? WHERE id = ? IF account_id = ? AND deleted_at = null',
  true,
);
const settings = statement('UPDATE {ks}.feeds SET settings = ?, updated_at = ? WHERE id = ? IF account_id = ? AND deleted_at = null', true);
// A refresh's state, written by every refresh: as a lightweight transaction it cost Cassandra five
// times the CPU of this plain write, and 85% of its Paxos rounds (bench/README.md, "One refresh,
// one Paxos round fewer"). No condition is needed: writing to a deleted feed is harmless (nothing
// reads its state), and to an id never inserted it leaves a row with no account, which the reads
// below skip. The insert (a Paxos write) sets these cells first and the first refresh follows it
// within milliseconds, so the write is stamped by the node's clock, as Paxos stamps the insert.
const fetchState = statement('UPDATE {ks}.feeds SET fetch_state = ?, fetch_url = ? WHERE id = ?', true, 'server');
// Not idempotent: a retry of a delete that applied would answer "already deleted".
const remove = statement('UPDATE {ks}.feeds SET deleted_at = ? WHERE id = ? IF account_id = ? AND deleted_at = null', false);
const everyFeed = statement('SELECT id, account_id, deleted_at, settings, fetch_state FROM {ks}.feeds', true);

const leave = (value: string | undefined): unknown => value ?? types.unset;

/** A feed's row, not the fetch state alone that a refresh of an id never inserted writes. */
const isFeed = (row: types.Row): boolean => row.get('account_id') !== null;

export function createCassandraFeedStore(cql: Cql): FeedStore {
  const index = createAccountIndex(cql, 'feeds_by_account', 'feed_id');
  const read = async (id: string): Promise<FeedRow | undefined> => {
    const row = await cql.one(byId, [id]);
    return row && isFeed(row) ? toFeedRow(row) : undefined;
  };
  const live = async (id: string): Promise<Feed | undefined> => {
    const row = await read(id);
    return row && row.deletedAt === null ? row.feed : undefined;
  };
  const owned = async (accountId: string, id: string): Promise<Feed | undefined> => {
    const feed = await live(id);
    return feed?.accountId === accountId ? feed : undefined;
  };

  return {
    async insert(feed) {
      const listedAt = types.TimeUuid.now();
      if (!(await cql.applied(insert, feedValues(feed, listedAt)))) throw new Error(`A feed with id \`${feed.id}\` already exists`);
      await index.add(feed.accountId, feed.createdAt, listedAt, feed.id);
    },
    async get(accountId, id): Promise<FeedLookup> {
      const row = await read(id);
      if (!row || row.feed.accountId !== accountId) return { state: 'missing' };
      return row.deletedAt === null ? { state: 'present', feed: row.feed } : { state: 'deleted' };
    },
    getById: live,
    async list(accountId, page) {
      const { total, ids } = await index.page(accountId, page);
      const feeds = await Promise.all(ids.map(live));
      return { total, feeds: feeds.filter((feed): feed is Feed => feed !== undefined) };
    },
    async update(accountId, id, changes: FeedPatch, updatedAt) {
      const params = [leave(changes.title), leave(changes.description), leave(changes.icon), updatedAt, id, accountId];
      return (await cql.applied(patch, params)) ? owned(accountId, id) : undefined;
    },
    async updateSettings(accountId, id, value, updatedAt) {
      return (await cql.applied(settings, [JSON.stringify(value), updatedAt, id, accountId])) ? owned(accountId, id) : undefined;
    },
    async saveFetchState(id, state, fetchUrl) {
      await cql.execute(fetchState, [JSON.stringify(state), fetchUrl, id]);
    },
    async markDeleted(accountId, id, deletedAt) {
      const row = await read(id);
      if (!row || row.feed.accountId !== accountId) return false;
      const deleted = row.deletedAt === null && (await cql.applied(remove, [deletedAt, id, accountId]));
      // Also when it was already deleted: finishes a delete that stopped before leaving the index.
      await index.remove(accountId, row.feed.createdAt, row.listedAt);
      return deleted;
    },
    async *dueFeeds(pageSize) {
      for await (const rows of cql.pages(everyFeed, [], pageSize)) {
        const due = rows
          .filter((row) => isFeed(row) && optionalText(row, 'deleted_at') === null)
          .map((row) => ({
            id: text(row, 'id'),
            settings: feedSettingsOf(JSON.parse(text(row, 'settings')) as Partial<FeedSettings>),
            fetch: JSON.parse(text(row, 'fetch_state')) as FetchState,
          }));
        if (due.length > 0) yield due;
      }
    },
  };
}
