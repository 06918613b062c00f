import type { HostedFormat } from '../../domain/hosted-urls.js';
import type { WebsubDistribution, WebsubSubscription } from '../../domain/websub.js';
import type { StoredWebsubSubscription, WebsubStore } from '../../ports/websub-store.js';
import type { Db } from './database.js';

interface SubscriptionRow {
  id: string;
  account_id: string;
  topic_url: string;
  topic_id: string;
  topic_format: HostedFormat;
  callback: string;
  sealed_secret: string | null;
  lease_seconds: number;
  expires_at: string;
  created_at: string;
  pending: number;
  attempts: number;
  next_attempt_at: string | null;
}

const toSubscription = (row: SubscriptionRow): StoredWebsubSubscription => ({
  id: row.id,
  accountId: row.account_id,
  topic: { url: row.topic_url, id: row.topic_id, format: row.topic_format },
  callback: row.callback,
  sealedSecret: row.sealed_secret,
  leaseSeconds: row.lease_seconds,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  distribution: { pending: row.pending === 1, attempts: row.attempts, nextAttemptAt: row.next_attempt_at },
});

const leaseRow = (s: WebsubSubscription) => ({
  id: s.id,
  accountId: s.accountId,
  topicUrl: s.topic.url,
  topicId: s.topic.id,
  topicFormat: s.topic.format,
  callback: s.callback,
  sealedSecret: s.sealedSecret,
  leaseSeconds: s.leaseSeconds,
  expiresAt: s.expiresAt,
  createdAt: s.createdAt,
});

export function createEmbeddedWebsubStore(db: Db): WebsubStore {
  const saveLease = db.prepare(
    `INSERT INTO websub_subscriptions (id, account_id, topic_url, topic_id, topic_format, callback, sealed_secret, lease_seconds, expires_at, created_at)
     VALUES (@id, @accountId, @topicUrl, @topicId, @topicFormat, @callback, @sealedSecret, @leaseSeconds, @expiresAt, @createdAt)
     ON CONFLICT (id) DO UPDATE SET sealed_secret = excluded.sealed_secret, lease_seconds = excluded.lease_seconds, expires_at = excluded.expires_at`,
  );
  const saveDistribution = db.prepare('UPDATE websub_subscriptions SET pending = ?, attempts = ?, next_attempt_at = ? WHERE id = ?');
  const byId = db.prepare<[string, string], SubscriptionRow>('SELECT * FROM websub_subscriptions WHERE id = ? AND expires_at > ?');
  const remove = db.prepare('DELETE FROM websub_subscriptions WHERE id = ?');
  const dropExpired = db.prepare('DELETE FROM websub_subscriptions WHERE account_id = ? AND expires_at <= ?');
  const byAccount = db.prepare<[string], SubscriptionRow>('SELECT * FROM websub_subscriptions WHERE account_id = ? ORDER BY id');
  const pending = db.prepare<[string], { id: string; next_attempt_at: string | null }>(
    'SELECT id, next_attempt_at FROM websub_subscriptions WHERE pending = 1 AND expires_at > ?',
  );
  return {
    async saveLease(subscription) {
      saveLease.run(leaseRow(subscription));
    },
    async saveDistribution(id, { pending, attempts, nextAttemptAt }: WebsubDistribution) {
      saveDistribution.run(pending ? 1 : 0, attempts, nextAttemptAt, id);
    },
    async get(id, now) {
      const row = byId.get(id, now.toISOString());
      return row ? toSubscription(row) : undefined;
    },
    async remove(id) {
      remove.run(id);
    },
    async listByAccount(accountId, now) {
      dropExpired.run(accountId, now.toISOString());
      return byAccount.all(accountId).map(toSubscription);
    },
    async listPending(now) {
      return pending.all(now.toISOString()).map((row) => ({ id: row.id, nextAttemptAt: row.next_attempt_at }));
    },
  };
}
