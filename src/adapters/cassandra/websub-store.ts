import type { types } from 'cassandra-driver';
import type { HostedFormat } from '../../domain/hosted-urls.js';
import { idleDistribution, type WebsubDistribution } from '../../domain/websub.js';
import type { StoredWebsubSubscription, WebsubStore } from '../../ports/websub-store.js';
import { statement, type Cql } from './cql.js';
import { instant, int, optionalText, text } from './row.js';

const lease = 'id, account_id, topic_url, topic_id, topic_format, callback, sealed_secret, lease_seconds, expires_at, created_at';
const columns = `${lease}, pending, attempts, next_attempt_at`;
// Rewriting the same values with the same TTL leaves the same row: these are idempotent.
const write = statement(
  `INSERT INTO {ks}.websub_subscriptions (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) USING TTL ?`,
  true,
);
const index = statement('INSERT INTO {ks}.websub_subscriptions_by_account (account_id, subscription_id) VALUES (?, ?) USING TTL ?', true);
const byId = statement(`SELECT ${columns} FROM {ks}.websub_subscriptions WHERE id = ?`, true);
const distribution = statement(
  'UPDATE {ks}.websub_subscriptions USING TTL ? SET pending = ?, attempts = ?, next_attempt_at = ? WHERE id = ?',
  true,
);
const remove = statement('DELETE FROM {ks}.websub_subscriptions WHERE id = ?', true);
const unindex = statement('DELETE FROM {ks}.websub_subscriptions_by_account WHERE account_id = ? AND subscription_id = ?', true);
const idsOfAccount = statement('SELECT subscription_id FROM {ks}.websub_subscriptions_by_account WHERE account_id = ?', true);
const markPending = statement('INSERT INTO {ks}.websub_pending (subscription_id, next_attempt_at) VALUES (?, ?) USING TTL ?', true);
const unmarkPending = statement('DELETE FROM {ks}.websub_pending WHERE subscription_id = ?', true);
const pendingIds = statement('SELECT subscription_id, next_attempt_at FROM {ks}.websub_pending', true);

/** Whole seconds of real time until `expiresAt`: a TTL is counted by the server's clock. */
const secondsUntil = (expiresAt: string): number => Math.ceil((instant(expiresAt, 'expiresAt').getTime() - Date.now()) / 1000);

const distributionOf = (row: types.Row): WebsubDistribution => {
  // Never written (a subscription not yet distributed to) reads as null.
  const pending: unknown = row.get('pending');
  const attempts: unknown = row.get('attempts');
  return {
    pending: pending === true,
    attempts: typeof attempts === 'number' ? attempts : 0,
    nextAttemptAt: optionalText(row, 'next_attempt_at'),
  };
};

const toSubscription = (row: types.Row): StoredWebsubSubscription => ({
  id: text(row, 'id'),
  accountId: text(row, 'account_id'),
  topic: { url: text(row, 'topic_url'), id: text(row, 'topic_id'), format: text(row, 'topic_format') as HostedFormat },
  callback: text(row, 'callback'),
  sealedSecret: optionalText(row, 'sealed_secret'),
  leaseSeconds: int(row, 'lease_seconds'),
  expiresAt: text(row, 'expires_at'),
  createdAt: text(row, 'created_at'),
  distribution: distributionOf(row),
});

export function createCassandraWebsubStore(cql: Cql): WebsubStore {
  // A row whose lease cells expired may keep a younger cell for a moment: only a whole lease counts.
  const live = async (id: string, now: Date): Promise<StoredWebsubSubscription | undefined> => {
    const row = await cql.one(byId, [id]);
    if (!row || optionalText(row, 'topic_url') === null || optionalText(row, 'expires_at') === null) return undefined;
    const subscription = toSubscription(row);
    return subscription.expiresAt > now.toISOString() ? subscription : undefined;
  };

  return {
    async saveLease(s) {
      const ttl = secondsUntil(s.expiresAt);
      if (ttl <= 0) return;
      // The whole row is rewritten with the new lease's TTL, the distribution too: its cells
      // would otherwise expire with the old lease.
      const existing = await cql.one(byId, [s.id]);
      const kept = existing && optionalText(existing, 'created_at') !== null ? existing : undefined;
      const { pending, attempts, nextAttemptAt } = kept ? distributionOf(kept) : idleDistribution;
      const createdAt = kept ? text(kept, 'created_at') : s.createdAt;
      await cql.execute(write, [
        s.id,
        s.accountId,
        s.topic.url,
        s.topic.id,
        s.topic.format,
        s.callback,
        s.sealedSecret,
        s.leaseSeconds,
        s.expiresAt,
        createdAt,
        pending,
        attempts,
        nextAttemptAt,
        ttl,
      ]);
      await cql.execute(index, [s.accountId, s.id, ttl]);
      if (pending) await cql.execute(markPending, [s.id, nextAttemptAt, ttl]);
    },
    async saveDistribution(id, d) {
      const row = await cql.one(byId, [id]);
      const expiresAt = row ? optionalText(row, 'expires_at') : null;
      const ttl = expiresAt === null ? 0 : secondsUntil(expiresAt);
      if (ttl <= 0) return;
      await cql.execute(distribution, [ttl, d.pending, d.attempts, d.nextAttemptAt, id]);
      await (d.pending ? cql.execute(markPending, [id, d.nextAttemptAt, ttl]) : cql.execute(unmarkPending, [id]));
    },
    get: live,
    async remove(id) {
      const row = await cql.one(byId, [id]);
      await cql.execute(remove, [id]);
      await cql.execute(unmarkPending, [id]);
      const accountId = row ? optionalText(row, 'account_id') : null;
      if (accountId !== null) await cql.execute(unindex, [accountId, id]);
    },
    async listByAccount(accountId, now) {
      const ids = (await cql.all(idsOfAccount, [accountId])).map((row) => text(row, 'subscription_id'));
      const found = await Promise.all(ids.map((id) => live(id, now)));
      return found.filter((s): s is StoredWebsubSubscription => s !== undefined);
    },
    async listPending(now) {
      const rows = await cql.all(pendingIds, []);
      const found = await Promise.all(
        rows.map(async (row) => ((await live(text(row, 'subscription_id'), now))?.distribution.pending ? row : undefined)),
      );
      return found
        .filter((row): row is types.Row => row !== undefined)
        .map((row) => ({ id: text(row, 'subscription_id'), nextAttemptAt: optionalText(row, 'next_attempt_at') }));
    },
  };
}
