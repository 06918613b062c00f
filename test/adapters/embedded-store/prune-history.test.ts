import { join } from 'node:path';
import t from 'tap';
import { migrate, openDatabase } from '../../../src/adapters/embedded-store/database.js';
import { createEmbeddedDeliveryStore } from '../../../src/adapters/embedded-store/delivery-store.js';
import { createEmbeddedEventOutbox } from '../../../src/adapters/embedded-store/event-outbox.js';
import { pruneHistory } from '../../../src/adapters/embedded-store/prune-history.js';
import type { Delivery } from '../../../src/domain/delivery.js';
import type { FeedEventEnvelope } from '../../../src/webhook-event/feed-update-event.js';
import { schemaDir, tempDir } from './temp-store.js';

const envelope = (id: string, occurredAt: string): FeedEventEnvelope => ({
  accountId: 'acct',
  feedId: 'feed',
  occurredAt,
  event: {
    id,
    type: 'feed_update',
    feed: {
      id: 'feed',
      title: 'A feed',
      source_url: 'https://example.com/feed.xml',
      rss_feed_url: 'https://feedmill.test/feeds/feed.xml',
      description: '',
      icon: '',
    },
    data: { items_new: [], items_changed: [] },
  },
});

const delivery = (id: string, status: Delivery['status'], createdAt: string): Delivery => ({
  id,
  webhookId: 'hook',
  accountId: 'acct',
  eventId: `evt_${id}`,
  body: '{}',
  status,
  attempts: 1,
  createdAt,
  nextAttemptAt: status === 'pending' ? createdAt : null,
});

t.test('history older than the cut-off goes; pending work and recent history stay', async (t) => {
  const db = openDatabase(join(tempDir(t), 'feedmill.db'));
  t.teardown(() => db.close());
  migrate(db, schemaDir);
  const outbox = createEmbeddedEventOutbox(db);
  const deliveries = createEmbeddedDeliveryStore(db);
  const old = '2024-01-01T00:00:00.000Z';
  const recent = '2024-03-01T00:00:00.000Z';

  await outbox.save(envelope('evt_old_sent', old));
  await outbox.markPublished('evt_old_sent', old);
  await outbox.save(envelope('evt_old_waiting', old));
  await outbox.save(envelope('evt_recent_sent', recent));
  await outbox.markPublished('evt_recent_sent', recent);
  for (const [id, status, at] of [
    ['old-done', 'succeeded', old],
    ['old-pending', 'pending', old],
    ['recent-failed', 'failed', recent],
  ] as const) {
    await deliveries.create(delivery(id, status, at));
    await deliveries.recordAttempt({
      deliveryId: id,
      eventId: `evt_${id}`,
      attempt: 1,
      at,
      statusCode: 500,
      latencyMs: 5,
      error: null,
      responseExcerpt: '',
      outcome: 'failed',
    });
  }

  t.equal(pruneHistory(db, new Date('2024-02-01T00:00:00.000Z')), 4, 'one event, one delivery, two attempts');
  t.same(
    (await outbox.unpublished(10)).map((e) => e.event.id),
    ['evt_old_waiting'],
    'an unpublished event stays, however old',
  );
  t.equal(await deliveries.get('old-done'), undefined, 'an old finished delivery goes');
  t.equal((await deliveries.get('old-pending'))?.status, 'pending', 'an old pending delivery stays');
  t.equal((await deliveries.get('recent-failed'))?.status, 'failed');
  const history = await deliveries.listAttempts('hook', { limit: 10, offset: 0 });
  t.same(
    history.attempts.map((attempt) => attempt.deliveryId),
    ['recent-failed'],
    'only recent attempts are listed',
  );
});
