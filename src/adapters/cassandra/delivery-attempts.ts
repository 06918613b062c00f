import type { types } from 'cassandra-driver';
import type { DeliveryAttempt } from '../../domain/delivery.js';
import type { Page } from '../../domain/pagination.js';
import { statement, type Cql } from './cql.js';
import { count, instant, text } from './row.js';

/** A webhook's call history: delivery_attempts (once per attempt number) and its listing by webhook. */
export interface DeliveryAttempts {
  /** Keeps the first record of each (delivery, attempt), listed under `webhookId`. */
  record(webhookId: string, attempt: DeliveryAttempt): Promise<void>;
  list(webhookId: string, page: Page): Promise<{ total: number; attempts: DeliveryAttempt[] }>;
}

// Not idempotent: a retry of a record that applied would read as "recorded before".
const once = statement(
  'INSERT INTO {ks}.delivery_attempts (delivery_id, attempt, webhook_id, data) VALUES (?, ?, ?, ?) IF NOT EXISTS',
  false,
);
const listed = statement(
  'INSERT INTO {ks}.delivery_attempts_by_webhook (webhook_id, at, attempt, delivery_id, data) VALUES (?, ?, ?, ?, ?)',
  true,
);
const total = statement('SELECT count(*) FROM {ks}.delivery_attempts_by_webhook WHERE webhook_id = ?', true);
const top = statement('SELECT data FROM {ks}.delivery_attempts_by_webhook WHERE webhook_id = ? LIMIT ?', true);

const parse = (row: types.Row): DeliveryAttempt => JSON.parse(text(row, 'data')) as DeliveryAttempt;

export function createDeliveryAttempts(cql: Cql): DeliveryAttempts {
  return {
    async record(webhookId, attempt) {
      const at = instant(attempt.at, `at of attempt ${attempt.attempt} of delivery ${attempt.deliveryId}`);
      const result = await cql.execute(once, [attempt.deliveryId, attempt.attempt, webhookId, JSON.stringify(attempt)]);
      // Recorded before: list the first record again (the same row, so a no-op unless a record
      // stopped between the two writes, which this finishes).
      const first = result.wasApplied() ? attempt : parse(result.first());
      const firstAt = first === attempt ? at : instant(first.at, 'stored attempt time');
      await cql.execute(listed, [webhookId, firstAt, first.attempt, first.deliveryId, JSON.stringify(first)]);
    },
    async list(webhookId, { limit, offset }) {
      const recorded = count(await cql.one(total, [webhookId]));
      if (offset >= recorded) return { total: recorded, attempts: [] };
      // CQL has no OFFSET: read the top offset + limit rows of the partition and drop the first.
      const rows = await cql.all(top, [webhookId, Math.min(offset + limit, recorded)]);
      return { total: recorded, attempts: rows.slice(offset).map(parse) };
    },
  };
}
