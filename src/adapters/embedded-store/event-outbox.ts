import type { FeedEventEnvelope } from '../../domain/feed-event.js';
import type { EventOutbox } from '../../ports/event-outbox.js';
import type { Db } from './database.js';

export function createEmbeddedEventOutbox(db: Db): EventOutbox {
  const save = db.prepare(
    'INSERT INTO events (id, account_id, feed_id, occurred_at, envelope, published_at) VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (id) DO NOTHING',
  );
  const published = db.prepare('UPDATE events SET published_at = ? WHERE id = ? AND published_at IS NULL');
  const pending = db.prepare<[number], string>('SELECT envelope FROM events WHERE published_at IS NULL ORDER BY occurred_at, id LIMIT ?').pluck();
  const pendingOf = db.prepare<[string], string>('SELECT envelope FROM events WHERE feed_id = ? AND published_at IS NULL ORDER BY occurred_at, id').pluck();
  return {
    async save(envelope) {
      save.run(envelope.event.id, envelope.accountId, envelope.feedId, envelope.occurredAt, JSON.stringify(envelope));
    },
    async markPublished(eventId, publishedAt) {
      published.run(publishedAt, eventId);
    },
    async unpublished(limit) {
      return pending.all(limit).map((text) => JSON.parse(text) as FeedEventEnvelope);
    },
    async unpublishedOf(feedId) {
      return pendingOf.all(feedId).map((text) => JSON.parse(text) as FeedEventEnvelope);
    },
  };
}
