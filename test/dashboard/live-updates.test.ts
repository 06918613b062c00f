import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createFeed } from '../../src/app/create-feed.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { createUser } from '../../src/app/users.js';
import { mountDashboard } from '../../src/dashboard/mount.js';
import { buildHttpApp } from '../../src/http/app.js';
import { dashboardClient } from '../fixtures/dashboard-client.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { openSse, type SseClient } from '../fixtures/sse-client.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// `GET /dashboard/events` over real HTTP: an open page hears which of its account's feeds changed,
// and FEEDMILL_EVENT_STREAMS_PER_ACCOUNT caps the pages one account keeps following at once.

const env = createTestDeps();
const deps = { ...env.deps, settings: { ...env.deps.settings, eventStreamsPerAccount: 2 } };
const app = await buildHttpApp(deps, { httpsOnly: false });
await mountDashboard(app, deps);
await app.listen({ port: 0, host: '127.0.0.1' });
const source = await startRssSource(1);
const streams: SseClient[] = [];
t.teardown(async () => {
  for (const stream of streams) stream.close();
  await app.close();
  await source.close();
  await env.close();
});

const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/dashboard/events`;
const password = 'correct horse battery';

/** A signed-in person of `account`: the session cookie their pages' streams send. */
async function signedIn(account: string): Promise<{ cookie: string; accountId: string }> {
  const { accountId } = await createUser(env.deps, { account, email: `${account}@example.test`, password });
  const person = dashboardClient(app);
  await person.signIn(`${account}@example.test`, password);
  return { cookie: `__Host-feedmill-session=${person.cookie ?? ''}`, accountId };
}

const ann = await signedIn('ann');
const ben = await signedIn('ben');

t.test('an open page hears which feed of its account changed', async (t) => {
  const page = await openSse(url, { cookie: ann.cookie });
  streams.push(page);
  t.equal(page.status, 200);
  const feed = await createFeed(env.deps, { accountId: ann.accountId, keyId: 'dashboard', scopes: ['read', 'write'] }, { url: source.url });
  source.addItem('Heard on the page');
  await refreshFeed(env.deps, feed.feed.id);
  const frame = await page.next();
  t.equal(frame.event, 'feed_update');
  t.same(JSON.parse(frame.data), { feed_id: feed.feed.id, event_id: frame.id }, 'only which feed changed, and the event id');
});

t.test('FEEDMILL_EVENT_STREAMS_PER_ACCOUNT caps the pages of one account following at once', async (t) => {
  const second = await openSse(url, { cookie: ann.cookie });
  streams.push(second);
  t.equal(second.status, 200, "the account's second page follows");
  const third = await fetch(url, { headers: { cookie: ann.cookie, accept: 'text/event-stream' } });
  t.equal(third.status, 429, 'the third is refused');
  t.match(await third.text(), /At most 2 dashboard pages .*FEEDMILL_EVENT_STREAMS_PER_ACCOUNT/);
  const bens = await openSse(url, { cookie: ben.cookie });
  streams.push(bens);
  t.equal(bens.status, 200, "another account's pages are counted apart");
});
