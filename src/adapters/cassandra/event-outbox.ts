import type { types } from 'cassandra-driver';
import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import type { EventOutbox } from '../../ports/event-outbox.js';
import { statement, type Cql } from './cql.js';
import { instant, optionalText, text } from './row.js';

// Not idempotent: a retry of a save that applied would answer "already there".
const save = statement(
  'INSERT INTO {ks}.events (id, account_id, feed_id, occurred_at, envelope) VALUES (?, ?, ?, ?, ?) IF NOT EXISTS',
  false,
);
const queue = statement('INSERT INTO {ks}.events_unpublished (id, occurred_at) VALUES (?, ?)', true);
// `occurred_at != null`: the event exists (`published_at = null` alone holds for a missing row and would create one).
const publish = statement('UPDATE {ks}.events SET published_at = ? WHERE id = ? IF occurred_at != null AND published_at = null', true);
const dequeue = statement('DELETE FROM {ks}.events_unpublished WHERE id = ?', true);
const queued = statement('SELECT id, occurred_at FROM {ks}.events_unpublished', true);
const envelopeOf = statement('SELECT envelope FROM {ks}.events WHERE id = ?', true);
const index = statement('INSERT INTO {ks}.events_by_account (account_id, occurred_at, id, envelope) VALUES (?, ?, ?, ?)', true);
// Multi-column slice on the clustering columns: strictly after (occurred_at, id).
const history = statement('SELECT envelope FROM {ks}.events_by_account WHERE account_id = ? AND (occurred_at, id) > (?, ?) LIMIT ?', true);

const oldestFirst = (a: { id: string; at: Date }, b: { id: string; at: Date }): number =>
  a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const queuedEntry = (row: types.Row): { id: string; at: Date } => {
  const at: unknown = row.get('occurred_at');
  if (!(at instanceof Date)) throw new Error(`Expected column \`occurred_at\` to be a timestamp, got ${typeof at}`);
  return { id: text(row, 'id'), at };
};

export function createCassandraEventOutbox(cql: Cql): EventOutbox {
  return {
    async save(envelope) {
      const id = envelope.event.id;
      const occurredAt = instant(envelope.occurredAt, `occurredAt of event ${id}`);
      const result = await cql.execute(save, [id, envelope.accountId, envelope.feedId, envelope.occurredAt, JSON.stringify(envelope)]);
      // Saved before, and not yet published: queue it again (idempotent), which finishes a save
      // that stopped between the two writes. The first save's time is kept, as its envelope is.
      const before = result.wasApplied() ? undefined : result.first();
      const at = before ? instant(text(before, 'occurred_at'), 'stored occurred_at') : occurredAt;
      // Before the queue entry: once published, an event must already be in its account's history.
      await cql.execute(index, [envelope.accountId, at, id, before ? text(before, 'envelope') : JSON.stringify(envelope)]);
      if (before && optionalText(before, 'published_at') !== null) return;
      await cql.execute(queue, [id, at]);
    },
    async markPublished(eventId, publishedAt) {
      await cql.applied(publish, [publishedAt, eventId]);
      // Also when it was published already: finishes a mark that stopped before the dequeue.
      await cql.execute(dequeue, [eventId]);
    },
    async get(eventId) {
      const row = await cql.one(envelopeOf, [eventId]);
      return row ? (JSON.parse(text(row, 'envelope')) as FeedEventEnvelope) : undefined;
    },
    async unpublished(limit) {
      // Empty in normal running (events leave on publish); sorted here, as a scan has no order.
      const next = (await cql.all(queued, [])).map(queuedEntry).sort(oldestFirst).slice(0, limit);
      const rows = await Promise.all(next.map(({ id }) => cql.one(envelopeOf, [id])));
      return rows.flatMap((row) => (row ? [JSON.parse(text(row, 'envelope')) as FeedEventEnvelope] : []));
    },
    async history(accountId, position, limit) {
      const rows = await cql.all(history, [accountId, instant(position.occurredAt, 'the position to read after'), position.id, limit]);
      return rows.map((row) => JSON.parse(text(row, 'envelope')) as FeedEventEnvelope);
    },
  };
}
