import type { Delivery, DeliveryAttempt } from '../../domain/delivery.js';
import type { DeliveryStore } from '../../ports/delivery-store.js';
import type { Db } from './database.js';

interface DeliveryRow {
  id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  body: string;
  status: Delivery['status'];
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
}

interface AttemptRow {
  delivery_id: string;
  event_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string;
  outcome: DeliveryAttempt['outcome'];
}

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  accountId: row.account_id,
  eventId: row.event_id,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  createdAt: row.created_at,
  nextAttemptAt: row.next_attempt_at,
});

const toAttempt = (row: AttemptRow): DeliveryAttempt => ({
  deliveryId: row.delivery_id,
  eventId: row.event_id,
  attempt: row.attempt,
  at: row.at,
  statusCode: row.status_code,
  latencyMs: row.latency_ms,
  error: row.error,
  responseExcerpt: row.response_excerpt,
  outcome: row.outcome,
});

export function createEmbeddedDeliveryStore(db: Db): DeliveryStore {
  const insert = db.prepare(
    `INSERT INTO deliveries (id, webhook_id, account_id, event_id, body, status, attempts, created_at, next_attempt_at)
     VALUES (@id, @webhookId, @accountId, @eventId, @body, @status, @attempts, @createdAt, @nextAttemptAt) ON CONFLICT (id) DO NOTHING`,
  );
  const byId = db.prepare<[string], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?');
  const save = db.prepare('UPDATE deliveries SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt WHERE id = @id');
  const attempt = db.prepare(
    `INSERT INTO delivery_attempts (delivery_id, webhook_id, event_id, attempt, at, status_code, latency_ms, error, response_excerpt, outcome)
     VALUES (?, (SELECT webhook_id FROM deliveries WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const count = db.prepare<[string], number>('SELECT count(*) FROM delivery_attempts WHERE webhook_id = ?').pluck();
  const page = db.prepare<[string, number, number], AttemptRow>(
    'SELECT * FROM delivery_attempts WHERE webhook_id = ? ORDER BY at DESC, attempt DESC LIMIT ? OFFSET ?',
  );
  const pending = db.prepare<[], { id: string; next_attempt_at: string | null }>(
    "SELECT id, next_attempt_at FROM deliveries WHERE status = 'pending'",
  );
  return {
    async create(delivery) {
      return insert.run(delivery).changes === 1;
    },
    async get(id) {
      const row = byId.get(id);
      return row ? toDelivery(row) : undefined;
    },
    async save(delivery) {
      save.run(delivery);
    },
    async recordAttempt(a) {
      attempt.run(a.deliveryId, a.deliveryId, a.eventId, a.attempt, a.at, a.statusCode, a.latencyMs, a.error, a.responseExcerpt, a.outcome);
    },
    async listAttempts(webhookId, { limit, offset }) {
      return { total: count.get(webhookId) ?? 0, attempts: page.all(webhookId, limit, offset).map(toAttempt) };
    },
    async listPending() {
      return pending.all().map((row) => ({ id: row.id, nextAttemptAt: row.next_attempt_at }));
    },
  };
}
