import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import type { EventOutbox } from '../../ports/event-outbox.js';
import type { Db } from './database.js';

/**
 * Writes an event to the outbox, unpublished; a no-op for an id already there. Synchronous, so
 * the item store can call it inside the transaction that stores the event's items.
 */
export function eventRecorder(db: Db): (envelope: FeedEventEnvelope) => void {
  const save = db.prepare(
    'INSERT INTO events (id, account_id, feed_id, occurred_at, envelope, published_at) VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (id) DO NOTHING',
  );
  return (envelope) => {
    save.run(envelope.event.id, envelope.accountId, envelope.feedId, envelope.occurredAt, JSON.stringify(envelope));
  };
}

export function createEmbeddedEventOutbox(db: Db): EventOutbox {
  const record = eventRecorder(db);
  const published = db.prepare('UPDATE events SET published_at = ? WHERE id = ? AND published_at IS NULL');
  const one = db.prepare<[string], string>('SELECT envelope FROM events WHERE id = ?').pluck();
  const pending = db
    .prepare<[number], string>('SELECT envelope FROM events WHERE published_at IS NULL ORDER BY occurred_at, id LIMIT ?')
    .pluck();
  // Row values compare in order (SQLite §row values), which the events_by_account index serves.
  const after = db
    .prepare<[string, string, string, number], string>(
      'SELECT envelope FROM events WHERE account_id = ? AND (occurred_at, id) > (?, ?) ORDER BY occurred_at, id LIMIT ?',
    )
    .pluck();
  return {
    async save(envelope) {
      record(envelope);
    },
    async markPublished(eventId, publishedAt) {
      published.run(publishedAt, eventId);
    },
    async get(eventId) {
      const text = one.get(eventId);
      return text === undefined ? undefined : (JSON.parse(text) as FeedEventEnvelope);
    },
    async unpublished(limit) {
      return pending.all(limit).map((text) => JSON.parse(text) as FeedEventEnvelope);
    },
    async history(accountId, position, limit) {
      return after.all(accountId, position.occurredAt, position.id, limit).map((text) => JSON.parse(text) as FeedEventEnvelope);
    },
  };
}
