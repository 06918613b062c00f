import { createHmac } from 'node:crypto';
import Fastify from 'fastify';
import t from 'tap';
import { topicRendererOf, type TopicRenderer } from '../../src/app/websub-topics.js';
import { createHostedFeedRenderer } from '../../src/app/hosted-feed.js';
import { leaseLimits } from '../../src/domain/websub.js';
import { registerErrorHandling } from '../../src/http/errors.js';
import { websubRoutes } from '../../src/http/routes/websub.js';
import { messageKeywords } from '../../src/http/validation-messages.js';
import { hubUrl, publicUrl, startHubStack } from '../fixtures/websub-hub.js';

/*
 * The hub tests of the WebSub conformance suite (websub.rocks, tests 100–106), each against a
 * subscriber fixture on 127.0.0.1 that records what the hub sends. Each asserts what the suite's
 * subscriber checks: the verification's parameters, and a notification whose body and
 * Content-Type are the topic's, with Link rel=hub and rel=self, signed exactly when a secret was given.
 */

// Topics in formats other than RSS, served the way websub.rocks 105 (plain text) and 106 (JSON) serve theirs.
const stand: Record<string, { contentType: string; body: (id: string) => string }> = {
  csv: { contentType: 'text/csv; charset=utf-8', body: (id) => `id,title\r\n${id},plain text\r\n` },
  json: {
    contentType: 'application/feed+json; charset=utf-8',
    body: (id) => JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: id }),
  },
};
const standIn =
  (rss: TopicRenderer): TopicRenderer =>
  async (topic) => {
    const format = stand[topic.format];
    return format ? { body: Buffer.from(format.body(topic.id)), contentType: format.contentType } : rss(topic);
  };
const stack = await startHubStack((deps) => standIn(topicRendererOf(createHostedFeedRenderer(deps))));
const rss: TopicRenderer = topicRendererOf(createHostedFeedRenderer(stack.env.deps));
t.teardown(() => stack.close());
const { app, subscriber, feedId } = stack;
const topic = `${publicUrl}/feeds/${feedId}.xml`;

/** What GET on the topic serves now: the notification must carry the same body and Content-Type. */
const served = async (url: string) => {
  const response = await app.inject({ method: 'GET', url: url.slice(publicUrl.length) });
  return { body: response.rawPayload, contentType: String(response.headers['content-type']) };
};

const linksOf = (header: string | string[] | undefined): Record<string, string> =>
  Object.fromEntries(
    [...String(header).matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)].map((match): [string, string] => [match[2] ?? '', match[1] ?? '']),
  );

t.test('100 typical subscriber request: verified with mode, topic, challenge and lease; notified with the topic, unsigned', async (t) => {
  await stack.subscribe(topic, '/100');
  const [verification] = subscriber.verifications.filter((v) => v.path === '/100');
  t.match(verification?.params, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.lease_seconds': String(leaseLimits.defaultSeconds) });
  t.match(verification?.params['hub.challenge'], /^[A-Za-z0-9_-]{32}$/);
  await stack.change('Post for 100');
  const [notification] = await subscriber.notified('/100');
  const now = await served(topic);
  t.ok(notification?.body.equals(now.body), 'the body is the topic as served (a fat ping)');
  t.match(notification?.body.toString(), /Post for 100/);
  t.equal(notification?.headers['content-type'], now.contentType);
  t.same(linksOf(notification?.headers.link), { hub: hubUrl, self: topic });
  t.notOk('x-hub-signature' in (notification?.headers ?? {}), 'no secret, no signature');
});

t.test('101 subscription with secret: every notification is signed sha256 with it', async (t) => {
  const secret = 'a secret of 20 chars';
  await stack.subscribe(topic, '/101', { 'hub.secret': secret });
  await stack.change('Post for 101');
  const [notification] = await subscriber.notified('/101');
  const expected = `sha256=${createHmac('sha256', secret)
    .update(notification?.body ?? '')
    .digest('hex')}`;
  t.equal(notification?.headers['x-hub-signature'], expected);
  const forged = `sha256=${createHmac('sha256', 'another secret')
    .update(notification?.body ?? '')
    .digest('hex')}`;
  t.not(notification?.headers['x-hub-signature'], forged, 'another secret does not verify');
});

t.test('102 subscriber sends additional parameters: the hub ignores them', async (t) => {
  const response = await stack.request({
    'hub.mode': 'subscribe',
    'hub.topic': topic,
    'hub.callback': `${subscriber.url}/102`,
    foo: 'bar',
    'hub.foo': 'hub.bar',
  });
  t.equal(response.statusCode, 202);
  const [verification] = await subscriber.verified('/102');
  t.notOk('foo' in (verification?.params ?? {}) || 'hub.foo' in (verification?.params ?? {}), 'unknown parameters are not passed on');
  await stack.change('Post for 102');
  t.equal((await subscriber.notified('/102')).length, 1);
});

t.test('103 re-subscribes before expiration: the same subscription is renewed, not doubled', async (t) => {
  const first = await stack.subscribe(topic, '/103', { 'hub.lease_seconds': '3600' });
  const second = await stack.subscribe(topic, '/103', { 'hub.lease_seconds': '7200' });
  t.equal(second.id, first.id);
  t.equal(second.leaseSeconds, 7200);
  t.equal(Date.parse(second.expiresAt), stack.clock.now + 7_200_000, 'the new lease replaces the first');
  t.equal(second.createdAt, first.createdAt);
  const forTopic = (await stack.env.deps.websub.listByAccount(second.accountId, new Date(stack.clock.now))).filter((s) =>
    s.callback.endsWith('/103'),
  );
  t.equal(forTopic.length, 1);
  await stack.change('Post for 103');
  await subscriber.notified('/103');
  await stack.change('Second post for 103');
  t.equal((await subscriber.notified('/103', 2)).length, 2, 'one notification per change');
});

t.test('104 unsubscription: verified without a lease, then no more notifications', async (t) => {
  await stack.subscribe(topic, '/104');
  await stack.subscribe(topic, '/104-stays');
  const response = await stack.request({ 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': `${subscriber.url}/104` });
  t.equal(response.statusCode, 202);
  const verifications = await subscriber.verified('/104', 2);
  t.match(verifications[1]?.params, { 'hub.mode': 'unsubscribe', 'hub.topic': topic });
  t.notOk('hub.lease_seconds' in (verifications[1]?.params ?? {}));
  for (let tries = 0; (await stack.stored(topic, '/104')) && tries < 500; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(await stack.stored(topic, '/104'), undefined);
  await stack.change('Post for 104');
  await subscriber.notified('/104-stays');
  t.equal(
    subscriber.notifications.filter((n) => n.path === '/104').length,
    0,
    'the change reached the subscriber that stayed, not the one that left',
  );
});

// A hub app whose renderer serves the stand-in formats, as the hosted outputs will.
// The ajv keywords our schemas carry for their messages, as buildHttpApp declares them.
const formats = Fastify({ ajv: { customOptions: { keywords: [...messageKeywords] } } });
registerErrorHandling(formats);
await formats.register(websubRoutes, {
  deps: stack.env.deps,
  render: standIn(rss),
});
t.teardown(() => formats.close());

for (const [number, format, what] of [
  ['105', 'csv', 'plaintext'],
  ['106', 'json', 'JSON'],
] as const) {
  t.test(`${number} ${what} topic: delivered as is, with its own Content-Type`, async (t) => {
    const formatTopic = `${publicUrl}/feeds/${feedId}.${format}`;
    await stack.subscribe(formatTopic, `/${number}`, {}, formats);
    await stack.change(`Post for ${number}`);
    const [notification] = await subscriber.notified(`/${number}`);
    t.equal(notification?.headers['content-type'], stand[format]?.contentType);
    t.match(notification?.body.toString(), stand[format]?.body(feedId) ?? '');
    t.same(linksOf(notification?.headers.link), { hub: hubUrl, self: formatTopic });
  });
}
