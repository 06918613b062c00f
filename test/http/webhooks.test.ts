import { Webhook as Verifier } from 'standardwebhooks';
import t from 'tap';
import { deliverWebhook } from '../../src/app/deliver-webhook.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { retryDelaysSeconds } from '../../src/domain/delivery.js';
import { feedEventId } from '../../src/domain/feed-event.js';
import type { FeedUpdateEvent } from '../../src/webhook-event/feed-update-event.js';
import { buildHttpApp } from '../../src/http/app.js';
import { deliveryQueueHandler } from '../../src/jobs/delivery-queue.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

// A clock the test moves, so a day of retries takes no time.
let now = Date.now();
const env = createTestDeps({ clock: { now: () => new Date(now) } });
const { deps } = env;
const app = await buildHttpApp(deps, { httpsOnly: false });
const source = await startRssSource(2);
const sink = await startWebhookSink();
// As a worker runs it: events become dispatch jobs on the delivery queue, beside the deliveries.
await deps.deliveryScheduler.start(deliveryQueueHandler(deps));
t.teardown(async () => {
  await app.close();
  await source.close();
  await sink.close();
  await env.close();
});

const alice = apiClient(app, await env.bearer('alice'));
const bob = apiClient(app, await env.bearer('bob'));
const feedId = (await alice.post('/v1/feeds', { url: source.url })).json<{ id: string }>().id;

interface ApiWebhook {
  id: string;
  secret?: string;
  enabled: boolean;
  disabled_reason: string | null;
  scope: string;
  feeds: string[];
  filters: unknown;
}

const createHook = async (body: Record<string, unknown>): Promise<ApiWebhook> => {
  const response = await alice.post('/v1/webhooks', { url: sink.url, ...body });
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json<ApiWebhook>();
};

t.test('managing webhooks: create (secret shown once), get, list, update, delete', async (t) => {
  const hook = await createHook({ feeds: [feedId] });
  t.match(hook.id, /^wh_[A-Za-z0-9_-]{16}$/);
  t.match(hook.secret, /^whsec_[A-Za-z0-9+/=]+$/);
  t.match(hook, { scope: 'feeds', feeds: [feedId], enabled: true, filters: null });
  const got = (await alice.get(`/v1/webhooks/${hook.id}`)).json<ApiWebhook>();
  t.notOk('secret' in got, 'the secret is never shown again');
  t.equal((await alice.get('/v1/webhooks')).json<{ total: number }>().total, 1);
  assertError(t, await bob.get(`/v1/webhooks/${hook.id}`), 404, 'webhook_not_found');
  const updated = (
    await alice.patch(`/v1/webhooks/${hook.id}`, { filters: { field: 'title', op: 'contains', value: 'x' } })
  ).json<ApiWebhook>();
  t.same(updated.filters, { field: 'title', op: 'contains', value: 'x' });
  t.same((await alice.delete(`/v1/webhooks/${hook.id}`)).json(), { id: hook.id, deleted: true });
  assertError(t, await alice.get(`/v1/webhooks/${hook.id}`), 404, 'webhook_not_found');
});

t.test('bad webhook definitions are 400 or 404 and create nothing', async (t) => {
  assertError(t, await alice.post('/v1/webhooks', { url: 'ftp://x' }), 400, 'invalid_url');
  assertError(t, await alice.post('/v1/webhooks', { url: sink.url, feeds: [feedId], bundles: [] }), 400, 'validation_failed');
  assertError(t, await bob.post('/v1/webhooks', { url: sink.url, feeds: [feedId] }), 404, 'feed_not_found');
  const backreference = await alice.post('/v1/webhooks', { url: sink.url, filters: { field: 'title', op: 'matches', value: '(a)\\1' } });
  t.match(
    assertError(t, backreference, 400, 'validation_failed').message,
    /^Expected `filters\.value` to be a regular expression in RE2 syntax .*; RE2 says: invalid escape sequence: `\\1`$/,
  );
  const unknownOp = await alice.post('/v1/webhooks', {
    url: sink.url,
    filters: { any: [{ field: 'title', op: 'startswith', value: 'x' }] },
  });
  t.match(assertError(t, unknownOp, 400, 'validation_failed').message, /filters\.any\[0\]\.op/);
  t.equal((await alice.get('/v1/webhooks')).json<{ total: number }>().total, 0);
});

t.test('a new item reaches the webhook signed the Standard Webhooks way, with the spec event', async (t) => {
  const hook = await createHook({ feeds: [feedId] });
  t.teardown(() => alice.delete(`/v1/webhooks/${hook.id}`));
  sink.calls.length = 0;
  source.addItem('Signed news');
  await refreshFeed(deps, feedId);
  const [call] = await sink.received(1);
  if (!call) throw new Error('no call');
  const headers = {
    'webhook-id': String(call.headers['webhook-id']),
    'webhook-timestamp': String(call.headers['webhook-timestamp']),
    'webhook-signature': String(call.headers['webhook-signature']),
  };
  const verified = new Verifier(hook.secret ?? '').verify(call.body, headers) as FeedUpdateEvent;
  t.equal(verified.type, 'feed_update');
  t.equal(headers['webhook-id'], verified.id, 'webhook-id is the event id');
  t.same(
    verified.data.items_new.map((item) => item.title),
    ['Signed news'],
  );
  t.throws(
    () => new Verifier('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(call.body, headers),
    'another secret does not verify',
  );
  // The attempt is recorded once the receiver's answer is in, a moment after the sink saw the call.
  type History = { total: number; data: { event_id: string; status_code: number; outcome: string; attempt: number }[] };
  let history = (await alice.get(`/v1/webhooks/${hook.id}/deliveries`)).json<History>();
  for (let tries = 0; history.total === 0 && tries < 100; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    history = (await alice.get(`/v1/webhooks/${hook.id}/deliveries`)).json<History>();
  }
  t.match(history.data[0], { event_id: verified.id, status_code: 200, outcome: 'succeeded', attempt: 1 });
});

t.test('filters decide which items are sent; an event left empty is not sent', async (t) => {
  const rust = await createHook({
    feeds: [feedId],
    filters: {
      any: [
        { field: 'title', op: 'contains', value: 'RUST' },
        { field: 'title', op: 'matches', value: '^zig\\b' },
      ],
    },
  });
  const none = await createHook({ feeds: [feedId], filters: { field: 'url', op: 'not_contains', value: '/posts/' } });
  t.teardown(async () => {
    await alice.delete(`/v1/webhooks/${rust.id}`);
    await alice.delete(`/v1/webhooks/${none.id}`);
  });
  sink.calls.length = 0;
  source.addItem('Rust 2.0 released');
  source.addItem('Go news');
  await refreshFeed(deps, feedId);
  const calls = await sink.received(1);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal(calls.length, 1, 'only the webhook whose filter matched was called');
  t.same(
    (JSON.parse(calls[0]?.body ?? '{}') as FeedUpdateEvent).data.items_new.map((item) => item.title),
    ['Rust 2.0 released'],
  );
});

t.test('a failing receiver is retried with growing gaps, every attempt in the history, then given up', async (t) => {
  const hook = await createHook({ feeds: [feedId] });
  t.teardown(() => alice.delete(`/v1/webhooks/${hook.id}`));
  await deps.deliveryScheduler.close(); // this test drives the attempts itself, on its clock
  sink.answer(503, { 'retry-after': '1' });
  source.addItem('Will fail');
  const outcome = await refreshFeed(deps, feedId);
  // The dispatch job, as the closed queue would have run it.
  await deliveryQueueHandler(deps)({ id: feedEventId(feedId, [...(outcome?.fresh ?? []), ...(outcome?.changed ?? [])]) });
  const deliveryId = (await deps.deliveries.listPending())[0]?.id;
  if (!deliveryId) throw new Error('no pending delivery');
  const gaps: number[] = [];
  for (;;) {
    const { next } = await deliverWebhook(deps, deliveryId);
    if (next === null) break;
    gaps.push(next.getTime() - now);
    now = next.getTime();
  }
  t.equal(gaps.length, retryDelaysSeconds.length, 'one retry per step of the schedule');
  gaps.forEach((gap, i) => {
    const base = (retryDelaysSeconds[i] ?? 0) * 1000;
    t.ok(gap >= base * 0.8 && gap <= base * 1.2, `retry ${i + 1} waits ${Math.round(gap / 1000)} s, the schedule's ${base / 1000} s ± 20%`);
  });
  t.ok((gaps.at(-1) ?? 0) > 1000 * (gaps[0] ?? 0), 'the gaps grow from seconds to hours');
  t.ok(gaps.reduce((a, b) => a + b, 0) > 20 * 3600 * 1000, 'retries span about a day');
  const history = (await alice.get(`/v1/webhooks/${hook.id}/deliveries?limit=100`)).json<{
    total: number;
    data: { outcome: string; status_code: number; response_excerpt: string }[];
  }>();
  t.equal(history.total, retryDelaysSeconds.length + 1, 'every attempt is in the history');
  t.ok(
    history.data.every(
      (attempt) => attempt.outcome === 'failed' && attempt.status_code === 503 && attempt.response_excerpt === 'sink says 503',
    ),
  );
  const retried = await alice.post(`/v1/webhooks/${hook.id}/deliveries/${deliveryId}/retry`, undefined);
  t.same(retried.json(), { delivery_id: deliveryId, status: 'pending' });
  assertError(t, await alice.post(`/v1/webhooks/${hook.id}/deliveries/dlv_nope/retry`, undefined), 404, 'delivery_not_found');
  sink.answer(200);
  now = Date.now();
});

t.test('410 Gone disables the webhook at once, and says so', async (t) => {
  const hook = await createHook({});
  sink.answer(410);
  const attempt = (await alice.post(`/v1/webhooks/${hook.id}/test`, undefined)).json<{ status_code: number; outcome: string }>();
  t.match(attempt, { status_code: 410, outcome: 'failed' });
  const after = (await alice.get(`/v1/webhooks/${hook.id}`)).json<ApiWebhook>();
  t.equal(after.enabled, false);
  t.match(after.disabled_reason, /410/);
  sink.answer(200);
  const enabled = (await alice.patch(`/v1/webhooks/${hook.id}`, { enabled: true })).json<ApiWebhook>();
  t.same([enabled.enabled, enabled.disabled_reason], [true, null], 'enabling again clears the reason');
  await alice.delete(`/v1/webhooks/${hook.id}`);
});

t.test('a test event arrives signed; after a rotation both secrets verify during the overlap', async (t) => {
  const hook = await createHook({});
  t.teardown(() => alice.delete(`/v1/webhooks/${hook.id}`));
  sink.calls.length = 0;
  const attempt = (await alice.post(`/v1/webhooks/${hook.id}/test`, undefined)).json<{ outcome: string }>();
  t.equal(attempt.outcome, 'succeeded');
  const rotated = (await alice.post(`/v1/webhooks/${hook.id}/rotate-secret`, undefined)).json<ApiWebhook>();
  t.not(rotated.secret, hook.secret);
  await alice.post(`/v1/webhooks/${hook.id}/test`, undefined);
  const calls = await sink.received(2);
  const last = calls[1];
  if (!last) throw new Error('no second call');
  const headers = {
    'webhook-id': String(last.headers['webhook-id']),
    'webhook-timestamp': String(last.headers['webhook-timestamp']),
    'webhook-signature': String(last.headers['webhook-signature']),
  };
  t.equal(headers['webhook-signature'].split(' ').length, 2, 'signed with both secrets');
  for (const secret of [hook.secret, rotated.secret]) t.ok(new Verifier(secret ?? '').verify(last.body, headers), 'verifies');
  t.equal((JSON.parse(calls[0]?.body ?? '{}') as FeedUpdateEvent).feed.id, 'test');
});
