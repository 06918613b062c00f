import t from 'tap';
import { deliveryId } from '../../src/app/deliver-webhook.js';
import { createWebhook } from '../../src/app/webhooks.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import { FeedmillError } from '../../src/domain/errors.js';
import { deliveryQueueHandler } from '../../src/jobs/delivery-queue.js';
import type { WebhookStore } from '../../src/ports/webhook-store.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const principal = { accountId: 'alice', keyId: 'fmk_test', scopes: ['read', 'write'] as ('read' | 'write')[] };

const envelope: FeedEventEnvelope = {
  accountId: 'alice',
  feedId: 'feed-1',
  occurredAt: new Date().toISOString(),
  event: {
    id: 'evt_dispatchdispatchdispatc',
    type: 'feed_update',
    feed: {
      id: 'feed-1',
      title: 'A feed',
      source_url: 'https://example.com/feed.xml',
      rss_feed_url: 'https://localhost/feeds/feed-1.xml',
      description: '',
      icon: '',
    },
    data: { items_new: [], items_changed: [] },
  },
};

t.test('a dispatch job that meets a store outage fails, so the scheduler retries it, and then creates each delivery once', async (t) => {
  const env = createTestDeps();
  t.teardown(() => env.close());
  const { webhook: hook } = await createWebhook(env.deps, principal, { url: 'https://example.com/hook' });
  await env.deps.outbox.save(envelope);
  let down = true;
  const webhooks: WebhookStore = {
    ...env.deps.webhooks,
    listEnabled: async (accountId) => {
      if (down) throw new FeedmillError('store_unavailable', 'the store is away');
      return env.deps.webhooks.listEnabled(accountId);
    },
  };
  const handler = deliveryQueueHandler({ ...env.deps, webhooks });
  await t.rejects(handler({ id: envelope.event.id }), { code: 'store_unavailable' }, 'the job fails instead of dropping the event');
  const id = deliveryId(hook.id, envelope.event.id);
  t.equal(await env.deps.deliveries.get(id), undefined, 'no delivery yet');
  down = false;
  t.equal(await handler({ id: envelope.event.id }), null, 'the retry dispatches and is done');
  t.equal(await handler({ id: envelope.event.id }), null, 'a second run of the same job changes nothing');
  t.equal((await env.deps.deliveries.get(id))?.eventId, envelope.event.id, 'the delivery of the event exists');
  t.same(
    (await env.deps.deliveries.listPending()).map((pending) => pending.id),
    [id],
    'once',
  );
});

t.test('a dispatch job for an event no longer stored is done without a delivery', async (t) => {
  const env = createTestDeps();
  t.teardown(() => env.close());
  await createWebhook(env.deps, principal, { url: 'https://example.com/hook' });
  t.equal(await deliveryQueueHandler(env.deps)({ id: 'evt_goneevtgoneevtgoneevtgo' }), null);
  t.equal(env.deps.deliveryScheduler.size, 0, 'nothing was scheduled');
});
