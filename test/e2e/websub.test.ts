import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { binaryEnv, freePort } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { startWebsubSubscriber } from '../fixtures/websub-subscriber.js';

// The binary over HTTPS: a subscriber on 127.0.0.1 subscribes through the hub, gets each change of
// a feed polled every second or two, signed, and stops getting them once it unsubscribes.
t.setTimeout(300_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-websub-'));
const port = await freePort();
const env = await binaryEnv(dataDir, { port });
const source = await startRssSource(1);
const subscriber = await startWebsubSubscriber();
const { service, call } = await startServiceAs(env, 'alice');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  await subscriber.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const feedId = String((await call('POST', '/v1/feeds', { url: source.url })).json.id);
const publicUrl = `https://localhost:${port}`;
const topic = `${publicUrl}/feeds/${feedId}.xml`;
const secret = 'e2e secret';

/**
 * Publishes items until one reaches `path`: the hub stores a subscription (or removes it) a moment
 * after the subscriber's echo, which the subscriber cannot observe, so a change made just before
 * that may rightly reach nobody. Returns the notification and the title that arrived.
 */
async function pushUntil(
  path: string,
  title: string,
): Promise<{ title: string; body: Buffer; headers: Record<string, string | string[] | undefined> }> {
  for (let round = 1; round <= 5; round += 1) {
    const item = `${title} ${round}`;
    source.addItem(item);
    for (let polls = 0; polls < 200; polls += 1) {
      const found = subscriber.notifications.find((n) => n.path === path && n.body.includes(item));
      if (found) return { title: item, body: found.body, headers: found.headers };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`no notification reached ${path}`);
}

const hub = (mode: string, path: string, fields: Record<string, string> = {}) =>
  service.call('POST', '/websub', {
    form: { 'hub.mode': mode, 'hub.topic': topic, 'hub.callback': `${subscriber.url}${path}`, ...fields },
  });

t.test('subscribe over HTTPS, get each change signed, unsubscribe and get no more', async (t) => {
  t.equal((await hub('subscribe', '/signed', { 'hub.secret': secret, 'hub.lease_seconds': '3600' })).status, 202);
  t.equal((await hub('subscribe', '/stays')).status, 202);
  const [verification] = await subscriber.verified('/signed');
  t.match(verification?.params, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.lease_seconds': '3600' });
  await subscriber.verified('/stays');

  const notification = await pushUntil('/signed', 'Pushed over WebSub');
  t.equal(notification.headers['content-type'], 'application/rss+xml; charset=utf-8');
  t.match(notification.headers.link, `<${publicUrl}/websub>; rel="hub"`);
  t.match(notification.headers.link, `<${topic}>; rel="self"`);
  t.equal(notification.headers['x-hub-signature'], `sha256=${createHmac('sha256', secret).update(notification.body).digest('hex')}`);
  t.match((await service.call('GET', `/feeds/${feedId}.xml`)).text, notification.title, 'the hosted feed shows what was pushed');

  t.equal((await hub('unsubscribe', '/signed')).status, 202);
  await subscriber.verified('/signed', 2);
  // One change to let the removal land (see pushUntil), then the one that proves it.
  await pushUntil('/stays', 'Settling');
  const after = await pushUntil('/stays', 'After the unsubscribe');
  t.notOk(
    subscriber.notifications.some((n) => n.path === '/signed' && n.body.includes(after.title)),
    'the change reached the subscriber that stayed, not the one that left',
  );
});
