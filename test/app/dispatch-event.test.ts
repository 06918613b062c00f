import t, { type Test } from 'tap';
import { deliveryId } from '../../src/app/deliver-webhook.js';
import { dispatchEvent } from '../../src/app/dispatch-event.js';
import { createWebhook } from '../../src/app/webhooks.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const principal = { accountId: 'alice', keyId: 'fmk_test', scopes: ['read', 'write'] as ('read' | 'write')[] };

const envelope = (eventId: string): FeedEventEnvelope => ({
  accountId: 'alice',
  feedId: 'feed-1',
  occurredAt: new Date().toISOString(),
  event: {
    id: eventId,
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
});

/** A webhook, and the delivery of event `eventId` to it as a listener left it: a row, no job. */
async function leftBehind(t: Test, eventId: string, status: 'pending' | 'succeeded') {
  const env = createTestDeps();
  t.teardown(() => env.close());
  const { webhook: hook } = await createWebhook(env.deps, principal, { url: 'https://example.com/hook' });
  const pending = status === 'pending';
  await env.deps.deliveries.create({
    id: deliveryId(hook.id, eventId),
    webhookId: hook.id,
    accountId: 'alice',
    eventId,
    body: '{}',
    status,
    attempts: pending ? 0 : 1,
    createdAt: new Date().toISOString(),
    nextAttemptAt: pending ? new Date().toISOString() : null,
  });
  return env.deps;
}

t.test('a delivery another listener made but never scheduled (it died) is scheduled by the next one', async (t) => {
  const eventId = 'evt_AAAAAAAAAAAAAAAAAAAAAAAA';
  const deps = await leftBehind(t, eventId, 'pending');
  t.equal(deps.deliveryScheduler.size, 0, 'no job yet');
  t.equal(await dispatchEvent(deps, envelope(eventId)), 0, 'nothing new is created');
  t.equal(deps.deliveryScheduler.size, 1, 'but the waiting delivery now has its job');
});

t.test('a delivery already finished is not scheduled again', async (t) => {
  const eventId = 'evt_BBBBBBBBBBBBBBBBBBBBBBBB';
  const deps = await leftBehind(t, eventId, 'succeeded');
  t.equal(await dispatchEvent(deps, envelope(eventId)), 0);
  t.equal(deps.deliveryScheduler.size, 0, 'no job for a finished delivery');
});
