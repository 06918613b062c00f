import type { Webhook } from '../../domain/webhook.js';
import type { WebhookStore } from '../../ports/webhook-store.js';
import type { Db } from './database.js';

const toWebhook = (data: string): Webhook => JSON.parse(data) as Webhook;

export function createEmbeddedWebhookStore(db: Db): WebhookStore {
  const insert = db.prepare('INSERT INTO webhooks (id, account_id, enabled, created_at, data) VALUES (?, ?, ?, ?, ?)');
  const byId = db.prepare<[string, string], string>('SELECT data FROM webhooks WHERE id = ? AND account_id = ?').pluck();
  const count = db.prepare<[string], number>('SELECT count(*) FROM webhooks WHERE account_id = ?').pluck();
  const page = db
    .prepare<[string, number, number], string>(
      'SELECT data FROM webhooks WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
    )
    .pluck();
  const enabled = db.prepare<[string], string>('SELECT data FROM webhooks WHERE account_id = ? AND enabled = 1').pluck();
  const save = db.prepare('UPDATE webhooks SET enabled = ?, data = ? WHERE id = ? AND account_id = ?');
  const remove = db.prepare('DELETE FROM webhooks WHERE id = ? AND account_id = ?');
  return {
    async insert(webhook) {
      insert.run(webhook.id, webhook.accountId, webhook.enabled ? 1 : 0, webhook.createdAt, JSON.stringify(webhook));
    },
    async get(accountId, id) {
      const data = byId.get(id, accountId);
      return data === undefined ? undefined : toWebhook(data);
    },
    async list(accountId, { limit, offset }) {
      return { total: count.get(accountId) ?? 0, webhooks: page.all(accountId, limit, offset).map(toWebhook) };
    },
    async listEnabled(accountId) {
      return enabled.all(accountId).map(toWebhook);
    },
    async save(webhook) {
      save.run(webhook.enabled ? 1 : 0, JSON.stringify(webhook), webhook.id, webhook.accountId);
    },
    async delete(accountId, id) {
      return remove.run(id, accountId).changes === 1;
    },
  };
}
