import t from 'tap';
import { createUndiciWebhookSender } from '../../src/adapters/undici/webhook-sender.js';
import { createHostedFeedRenderer } from '../../src/app/hosted-feed.js';
import { distribute } from '../../src/app/websub-distribute.js';
import { verifyIntent } from '../../src/app/websub-subscribe.js';
import { topicRendererOf } from '../../src/app/websub-topics.js';
import { retryDelaysSeconds } from '../../src/domain/delivery.js';
import { leaseLimits } from '../../src/domain/websub.js';
import { buildHttpApp } from '../../src/http/app.js';
import { assertError } from '../fixtures/error-shape.js';
import { publicUrl, startHubStack } from '../fixtures/websub-hub.js';

const stack = await startHubStack();
t.teardown(() => stack.close());
const { app, subscriber, feedId, env } = stack;
const { deps } = env;
const render = topicRendererOf(createHostedFeedRenderer(deps));
const topic = `${publicUrl}/feeds/${feedId}.xml`;
const form = (fields: Record<string, string>) => ({
  'hub.mode': 'subscribe',
  'hub.topic': topic,
  'hub.callback': `${subscriber.url}/cb`,
  ...fields,
});

t.test('requests the hub cannot take are answered 4xx in our error shape, and verify nothing', async (t) => {
  const before = subscriber.verifications.length;
  assertError(t, await stack.request(form({ 'hub.topic': `${publicUrl}/feeds/AAAAAAAAAAAAAAAA.xml` })), 404, 'feed_not_found');
  assertError(t, await stack.request(form({ 'hub.topic': `${publicUrl}/feeds/_AAAAAAAAAAAAAAAA.atom` })), 404, 'bundle_not_found');
  assertError(t, await stack.request(form({ 'hub.topic': `https://elsewhere.example/feeds/${feedId}.xml` })), 404, 'feed_not_found');
  assertError(t, await stack.request(form({ 'hub.topic': `${publicUrl}/feeds/${feedId}.html` })), 404, 'feed_not_found');
  t.match(
    assertError(t, await stack.request(form({ 'hub.mode': 'publish' })), 400, 'validation_failed').message,
    /hub\.mode` to be `subscribe` or `unsubscribe`, got "publish"/,
  );
  t.match(
    assertError(t, await stack.request({ 'hub.mode': 'subscribe', 'hub.topic': topic }), 400, 'validation_failed').message,
    /hub\.callback/,
  );
  assertError(t, await stack.request(form({ 'hub.callback': 'ftp://subscriber.example/cb' })), 400, 'invalid_url');
  t.match(
    assertError(t, await stack.request(form({ 'hub.secret': 'x'.repeat(200) })), 400, 'validation_failed').message,
    /hub\.secret` to be fewer than 200 bytes of printable ASCII, got "x{20}/,
  );
  assertError(t, await stack.request(form({ 'hub.lease_seconds': 'a week' })), 400, 'validation_failed');
  const json = await app.inject({
    method: 'POST',
    url: '/websub',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(form({})),
  });
  assertError(t, json, 415, 'unsupported_media_type');
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(subscriber.verifications.length, before, 'no verification was sent');
});

t.test('the REST API still refuses forms with 415: the form parser belongs to the hub alone', async (t) => {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { authorization: stack.alice.authorization, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'url=https%3A%2F%2Fexample.com%2Ffeed',
  });
  assertError(t, response, 415, 'unsupported_media_type');
});

t.test('a callback must pass the address rule of webhook targets', async (t) => {
  const guarded = createUndiciWebhookSender({ timeoutMs: 2_000 });
  const strict = await buildHttpApp({ ...deps, webhookSender: guarded }, { httpsOnly: false });
  t.teardown(async () => {
    await strict.close();
    await guarded.close();
  });
  for (const callback of [`${subscriber.url}/private`, 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:127.0.0.1]/cb']) {
    assertError(t, await stack.request(form({ 'hub.callback': callback }), strict), 402, 'address_not_allowed');
  }
  t.equal(subscriber.verifications.filter((v) => v.path === '/private').length, 0);
});

t.test('the lease asked for is clamped to the bounds, and the callback keeps its own query', async (t) => {
  const short = await stack.subscribe(topic, '/short?token=abc', { 'hub.lease_seconds': '1' });
  t.equal(short.leaseSeconds, leaseLimits.minSeconds);
  const [verification] = subscriber.verifications.filter((v) => v.path === '/short');
  t.match(verification?.params, { token: 'abc', 'hub.lease_seconds': String(leaseLimits.minSeconds) });
  const long = await stack.subscribe(topic, '/long', { 'hub.lease_seconds': '999999999' });
  t.equal(long.leaseSeconds, leaseLimits.maxSeconds);
});

t.test('a subscriber that does not confirm is not subscribed; a forged unsubscribe leaves the subscription', async (t) => {
  t.teardown(() => subscriber.answerVerifications('echo'));
  subscriber.answerVerifications('not-found');
  t.equal((await stack.request(form({ 'hub.callback': `${subscriber.url}/refuses` }))).statusCode, 202);
  await subscriber.verified('/refuses');
  subscriber.answerVerifications('wrong-challenge');
  t.equal((await stack.request(form({ 'hub.callback': `${subscriber.url}/wrong` }))).statusCode, 202);
  await subscriber.verified('/wrong');
  subscriber.answerVerifications('echo');
  await stack.subscribe(topic, '/kept');
  subscriber.answerVerifications('not-found');
  t.equal(
    (await stack.request({ 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': `${subscriber.url}/kept` })).statusCode,
    202,
  );
  await subscriber.verified('/kept', 2);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(await stack.stored(topic, '/refuses'), undefined, 'a 404 to the challenge subscribes nothing');
  t.equal(await stack.stored(topic, '/wrong'), undefined, 'a wrong echo subscribes nothing');
  t.ok(await stack.stored(topic, '/kept'), 'an unsubscribe the subscriber did not ask for changes nothing');
});

t.test('a topic deleted before verification is denied to the subscriber (hub.mode=denied)', async (t) => {
  const doomed = (await stack.alice.post('/v1/feeds', { url: `${stack.source.url}?doomed` })).json<{ id: string }>().id;
  const doomedTopic = `${publicUrl}/feeds/${doomed}.xml`;
  await stack.alice.delete(`/v1/feeds/${doomed}`);
  const intent = {
    mode: 'subscribe' as const,
    topic: { url: doomedTopic, id: doomed, format: 'xml' as const },
    callback: `${subscriber.url}/denied`,
    leaseSeconds: 3600,
    secret: null,
  };
  t.equal(await verifyIntent(deps, render, intent), 'denied');
  const [verification] = await subscriber.verified('/denied');
  t.match(verification?.params, { 'hub.mode': 'denied', 'hub.topic': doomedTopic, 'hub.reason': /No hosted feed/ });
  t.notOk('hub.challenge' in (verification?.params ?? {}));
});

t.test('a bundle topic gets the bundle document when a member feed changes; the extensionless address too', async (t) => {
  const bundle = (await stack.alice.post('/v1/bundles', { name: 'Hub bundle', feeds: [feedId] })).json<{ id: string }>();
  const bundleTopic = `${publicUrl}/feeds/${bundle.id}.xml`;
  await stack.subscribe(bundleTopic, '/bundle');
  const bare = `${publicUrl}/feeds/${feedId}`;
  await stack.subscribe(bare, '/bare');
  await stack.change('Bundled post');
  const [notification] = await subscriber.notified('/bundle');
  const served = await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml` });
  t.ok(notification?.body.equals(served.rawPayload), 'the bundle as served');
  t.match(notification?.body.toString(), /Bundled post/);
  const [plain] = await subscriber.notified('/bare');
  t.match(plain?.headers.link, `<${bare}>; rel="self"`);
  t.equal(plain?.headers['content-type'], 'application/rss+xml; charset=utf-8');
});

t.test('a failing subscriber is retried on the backoff schedule; 410 Gone ends the subscription', async (t) => {
  t.teardown(() => subscriber.answerNotifications(200));
  // This test runs the distribution job itself, on its clock, as the scheduler would.
  await deps.deliveryScheduler.close();
  const subscription = await stack.subscribe(topic, '/flaky');
  const due = async (): Promise<void> =>
    deps.websub.saveDistribution(subscription.id, { pending: true, attempts: 0, nextAttemptAt: new Date(stack.clock.now).toISOString() });
  await due();
  subscriber.answerNotifications(503);
  const failed = await distribute(deps, render, subscription.id);
  t.equal(failed.outcome, 'failed');
  const wait = (failed.next?.getTime() ?? 0) - stack.clock.now;
  const first = retryDelaysSeconds[0] * 1000;
  t.ok(wait >= first * 0.8 && wait <= first * 1.2, `the second attempt waits ${wait} ms, the schedule's ${first} ms ± 20%`);
  t.same((await stack.stored(topic, '/flaky'))?.distribution, { pending: true, attempts: 1, nextAttemptAt: failed.next?.toISOString() });

  subscriber.answerNotifications(200);
  stack.clock.now += wait;
  t.same(await distribute(deps, render, subscription.id), { outcome: 'succeeded', next: null });
  t.same((await stack.stored(topic, '/flaky'))?.distribution, { pending: false, attempts: 0, nextAttemptAt: null });
  t.same(await distribute(deps, render, subscription.id), { outcome: null, next: null }, 'nothing more to send');
  t.equal(subscriber.notifications.filter((n) => n.path === '/flaky').length, 2);

  subscriber.answerNotifications(410);
  await due();
  t.match(await distribute(deps, render, subscription.id), { outcome: 'gone', next: null });
  t.equal(await stack.stored(topic, '/flaky'), undefined);
});

t.test('a lease ends: an expired subscription receives nothing more', async (t) => {
  const subscription = await stack.subscribe(topic, '/expiring', { 'hub.lease_seconds': String(leaseLimits.minSeconds) });
  stack.clock.now += (leaseLimits.minSeconds + 1) * 1000;
  t.equal(await stack.stored(topic, '/expiring'), undefined);
  t.notOk((await deps.websub.listByAccount(subscription.accountId, new Date(stack.clock.now))).some((s) => s.id === subscription.id));
  t.same(await distribute(deps, render, subscription.id), { outcome: null, next: null }, 'its distribution job finds nothing to send');
});

t.test('a feed takes at most FEEDMILL_WEBSUB_MAX_SUBSCRIBERS subscribers, its formats together; a renewal still passes', async (t) => {
  const capped = (await stack.alice.post('/v1/feeds', { url: `${stack.source.url}?capped` })).json<{ id: string }>().id;
  const xml = `${publicUrl}/feeds/${capped}.xml`;
  deps.settings.websubMaxSubscribers = 2;
  t.teardown(() => void delete deps.settings.websubMaxSubscribers);
  await stack.subscribe(xml, '/cap-1');
  await stack.subscribe(`${publicUrl}/feeds/${capped}.atom`, '/cap-2');
  const before = subscriber.verifications.length;
  const full = await stack.request(form({ 'hub.topic': xml, 'hub.callback': `${subscriber.url}/cap-3` }));
  t.match(assertError(t, full, 409, 'too_many_subscribers').message, /at most 2 subscribers/);
  t.equal(subscriber.verifications.length, before, 'nothing is verified for a refused subscriber');
  t.equal((await stack.request(form({ 'hub.topic': xml, 'hub.callback': `${subscriber.url}/cap-1` }))).statusCode, 202, 'a renewal');
  await subscriber.verified('/cap-1', 2);
});

t.test('a verification waits a few seconds for the subscriber, not the webhook timeout', async (t) => {
  // The stack's sender allows 3 s; the hub asks for less, and the sender never allows more than its own.
  const hanging = await import('node:http').then(({ createServer }) => createServer(() => undefined));
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    hanging.closeAllConnections();
    hanging.close();
  });
  const address = hanging.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/cb`;
  await t.rejects(deps.webhookSender.get(url, { timeoutMs: 200 }), { code: 'upstream_timeout', message: /within 200 ms/ });
  await t.rejects(deps.webhookSender.get(url, { timeoutMs: 60_000 }), { code: 'upstream_timeout', message: /within 3000 ms/ });
});
