import { types } from 'cassandra-driver';
import type { Webhook } from '../../domain/webhook.js';
import type { WebhookStore } from '../../ports/webhook-store.js';
import { createAccountIndex } from './account-index.js';
import { statement, type Cql } from './cql.js';
import { text, timeUuid } from './row.js';

// Every write to `webhooks` is conditional (see schema/cql/005-webhooks.cql).
const insert = statement(
  'INSERT INTO {ks}.webhooks (id, account_id, created_at, listed_at, data) VALUES (?, ?, ?, ?, ?) IF NOT EXISTS',
  false,
);
const byId = statement('SELECT account_id, created_at, listed_at, data FROM {ks}.webhooks WHERE id = ?', true);
// `IF account_id = ?` also fails on a deleted webhook: a save never brings one back.
const save = statement('UPDATE {ks}.webhooks SET data = ? WHERE id = ? IF account_id = ?', true);
// Not idempotent: a retry of a delete that applied would answer false.
const remove = statement('DELETE FROM {ks}.webhooks WHERE id = ? IF account_id = ?', false);

interface WebhookRow {
  webhook: Webhook;
  createdAt: string;
  listedAt: types.TimeUuid;
}

export function createCassandraWebhookStore(cql: Cql): WebhookStore {
  const index = createAccountIndex(cql, 'webhooks_by_account', 'webhook_id');
  const read = async (accountId: string, id: string): Promise<WebhookRow | undefined> => {
    const row = await cql.one(byId, [id]);
    if (!row || text(row, 'account_id') !== accountId) return undefined;
    return { webhook: JSON.parse(text(row, 'data')) as Webhook, createdAt: text(row, 'created_at'), listedAt: timeUuid(row, 'listed_at') };
  };
  const get = async (accountId: string, id: string): Promise<Webhook | undefined> => (await read(accountId, id))?.webhook;
  const present = (webhooks: (Webhook | undefined)[]): Webhook[] => webhooks.filter((webhook): webhook is Webhook => webhook !== undefined);

  return {
    async insert(webhook) {
      const listedAt = types.TimeUuid.now();
      const params = [webhook.id, webhook.accountId, webhook.createdAt, listedAt, JSON.stringify(webhook)];
      if (!(await cql.applied(insert, params))) throw new Error(`A webhook with id \`${webhook.id}\` already exists`);
      await index.add(webhook.accountId, webhook.createdAt, listedAt, webhook.id);
    },
    get,
    async list(accountId, page) {
      const { total, ids } = await index.page(accountId, page);
      return { total, webhooks: present(await Promise.all(ids.map((id) => get(accountId, id)))) };
    },
    async listEnabled(accountId) {
      // A handful per account: the index's ids, then each webhook, whose data says if it is enabled.
      const webhooks = present(await Promise.all((await index.all(accountId)).map((id) => get(accountId, id))));
      return webhooks.filter((webhook) => webhook.enabled);
    },
    async save(webhook) {
      await cql.applied(save, [JSON.stringify(webhook), webhook.id, webhook.accountId]);
    },
    async delete(accountId, id) {
      const row = await read(accountId, id);
      if (!row) return false;
      // The index first: a delete cut short leaves a webhook that is not listed (a retry finishes
      // it), never a listed entry whose webhook is gone and can no longer be found to remove it.
      await index.remove(accountId, row.createdAt, row.listedAt);
      return cql.applied(remove, [id, accountId]);
    },
  };
}
