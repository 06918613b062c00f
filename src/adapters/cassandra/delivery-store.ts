import { types } from 'cassandra-driver';
import type { Delivery } from '../../domain/delivery.js';
import type { DeliveryStore } from '../../ports/delivery-store.js';
import { statement, type Cql } from './cql.js';
import { createDeliveryAttempts } from './delivery-attempts.js';
import { int, optionalText, text } from './row.js';

const columns = 'id, webhook_id, account_id, event_id, body, status, attempts, created_at, next_attempt_at';
// Every write to `deliveries` is conditional (see schema/cql/005-webhooks.cql). Not idempotent:
// a retry of a create that applied would answer false.
const create = statement(`INSERT INTO {ks}.deliveries (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) IF NOT EXISTS`, false);
const byId = statement(`SELECT ${columns} FROM {ks}.deliveries WHERE id = ?`, true);
const webhookOf = statement('SELECT webhook_id FROM {ks}.deliveries WHERE id = ?', true);
// `webhook_id != null`: the delivery exists (an unconditional UPDATE would create one).
const save = statement('UPDATE {ks}.deliveries SET status = ?, attempts = ?, next_attempt_at = ? WHERE id = ? IF webhook_id != null', true);
const markPending = statement('INSERT INTO {ks}.deliveries_pending (id, next_attempt_at) VALUES (?, ?)', true);
const unmarkPending = statement('DELETE FROM {ks}.deliveries_pending WHERE id = ?', true);
const pending = statement('SELECT id, next_attempt_at FROM {ks}.deliveries_pending', true);

const toDelivery = (row: types.Row): Delivery => ({
  id: text(row, 'id'),
  webhookId: text(row, 'webhook_id'),
  accountId: text(row, 'account_id'),
  eventId: text(row, 'event_id'),
  body: text(row, 'body'),
  status: text(row, 'status') as Delivery['status'],
  attempts: int(row, 'attempts'),
  createdAt: text(row, 'created_at'),
  nextAttemptAt: optionalText(row, 'next_attempt_at'),
});

export function createCassandraDeliveryStore(cql: Cql): DeliveryStore {
  const attempts = createDeliveryAttempts(cql);
  // deliveries_pending follows the delivery's status; written after the delivery itself.
  const track = async ({ id, status, nextAttemptAt }: Pick<Delivery, 'id' | 'status' | 'nextAttemptAt'>): Promise<void> => {
    await (status === 'pending' ? cql.execute(markPending, [id, nextAttemptAt]) : cql.execute(unmarkPending, [id]));
  };

  return {
    async create(delivery) {
      const { id, webhookId, accountId, eventId, body, status, createdAt, nextAttemptAt } = delivery;
      // A null next attempt is left unset: null would write a tombstone.
      const params = [id, webhookId, accountId, eventId, body, status, delivery.attempts, createdAt, nextAttemptAt ?? types.unset];
      const result = await cql.execute(create, params);
      // Created before: track the stored delivery again, which finishes a create that stopped
      // before deliveries_pending.
      await track(result.wasApplied() ? delivery : toDelivery(result.first()));
      return result.wasApplied();
    },
    async get(id) {
      const row = await cql.one(byId, [id]);
      return row ? toDelivery(row) : undefined;
    },
    async save(delivery) {
      if (await cql.applied(save, [delivery.status, delivery.attempts, delivery.nextAttemptAt, delivery.id])) await track(delivery);
    },
    async recordAttempt(attempt) {
      const row = await cql.one(webhookOf, [attempt.deliveryId]);
      // As the embedded store, which cannot list an attempt under no webhook.
      if (!row) throw new Error(`Expected delivery \`${attempt.deliveryId}\` to exist to record its attempt ${attempt.attempt}`);
      await attempts.record(text(row, 'webhook_id'), attempt);
    },
    listAttempts: (webhookId, page) => attempts.list(webhookId, page),
    async listPending() {
      return (await cql.all(pending, [])).map((row) => ({ id: text(row, 'id'), nextAttemptAt: optionalText(row, 'next_attempt_at') }));
    },
  };
}
