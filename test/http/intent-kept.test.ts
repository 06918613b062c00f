import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Issue #14 point 5: four behaviours that used to lose what the user meant.
const rss = (items: string) =>
  `<rss version="2.0"><channel><title>Quiet</title><link>https://quiet.example/</link>${items}</channel></rss>`;
let throttled = false;
const site = await startFixtureServer((request, response) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  const html = (body: string): void => void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  // A page with no articles that names its feed at an address no well-known path would guess.
  if (path === '/announce/')
    return html(
      '<html><head><title>Soon</title><link rel="alternate" type="application/rss+xml" href="/posts/index.rss"></head><body><p>Coming soon.</p></body></html>',
    );
  if (path === '/posts/index.rss')
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(rss('<item><title>First</title><guid>urn:1</guid></item>'));
  if (path === '/empty.xml') return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss(''));
  if (path === '/busy.xml') {
    if (throttled) return void response.writeHead(429, { 'retry-after': '40' }).end();
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(rss('<item><title>One</title><guid>urn:1</guid></item>'));
  }
  if (path === '/down.xml') return void response.writeHead(503, { 'retry-after': '120' }).end();
  response.writeHead(404).end();
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await site.close();
  await env.close();
});
const alice = await env.bearer('alice');
const create = (url: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { authorization: alice, 'content-type': 'application/json' },
    payload: JSON.stringify({ url }),
  });

t.test('a page that advertises its feed but lists no articles gives that feed', async (t) => {
  const created = await create(`${site.url}/announce/`);
  t.equal(created.statusCode, 200, 'created, not 402 no_items_found');
  t.match(created.json(), { title: 'Quiet', source_url: `${site.url}/announce/`, items: [{ title: 'First' }] });
});

t.test('a feed whose source exists but has no items yet is created, active, with no items', async (t) => {
  const created = await create(`${site.url}/empty.xml`);
  t.equal(created.statusCode, 200, 'created, not 402 no_items_found');
  t.match(created.json(), { title: 'Quiet', items: [], status: { state: 'active', consecutive_errors: 0 } });
  const feedId = created.json<{ id: string }>().id;
  t.equal((await app.inject({ method: 'GET', url: `/feeds/${feedId}.xml` })).statusCode, 200, 'its hosted feed is served, empty');
});

t.test('a failed create says nothing was created and what to do, not that it will retry', async (t) => {
  const failed = await create(`${site.url}/down.xml`);
  t.equal(failed.statusCode, 402);
  const { message } = failed.json<{ message: string }>();
  t.match(message, /HTTP 503/);
  t.match(message, /nothing was created: check the address, and send the request again later \(the source asked for 120 s\)/);
  t.notMatch(message, /will retry/);
  t.equal(failed.headers['retry-after'], '120', 'Retry-After is passed on');
  const missing = (await create(`${site.url}/gone.xml`)).json<{ message: string }>().message;
  t.match(missing, /HTTP 404.*nothing was created: check the address$/, 'a 404 is not worth trying again later');
  t.equal(
    (await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization: alice } })).json<{ total: number }>().total,
    2,
    'only the two feeds above exist',
  );
});

t.test("a source's Retry-After is honoured above FEEDMILL_POLL_MAX_INTERVAL, and a failing feed's status says it will retry", async (t) => {
  const tight = createTestDeps({ settings: { ...env.deps.settings, poll: { minSeconds: 1, maxSeconds: 2 } } });
  t.teardown(() => tight.close());
  const tightApp = await buildHttpApp(tight.deps, { httpsOnly: false });
  t.teardown(() => tightApp.close());
  const key = await tight.bearer('carol');
  const created = await tightApp.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { authorization: key, 'content-type': 'application/json' },
    payload: JSON.stringify({ url: `${site.url}/busy.xml` }),
  });
  const feedId = created.json<{ id: string }>().id;
  throttled = true;
  t.teardown(() => void (throttled = false));
  const outcome = await refreshFeed(tight.deps, feedId);
  const waited =
    ((outcome?.nextRunAt?.getTime() ?? 0) - Date.parse((await tight.deps.feeds.getById(feedId))?.fetch.lastFetchedAt ?? '')) / 1000;
  t.ok(waited >= 40, `a 429 asking for 40 s under a 2 s ceiling waits 40 s, not 2 (${waited} s)`);
  t.ok(waited <= 44, 'and not much more');
  const status = (await tightApp.inject({ method: 'GET', url: `/v1/feeds/${feedId}`, headers: { authorization: key } })).json<{
    status: { last_error: { message: string } };
  }>().status;
  t.match(status.last_error.message, /HTTP 429.*feedmill will retry later$/);
});
