import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

/** A podcast that stamps its show's guid on every episode; each fetch is a new body (a new build date). */
let builds = 0;
let episodes = [
  '<item><title>Episode 2</title><link>/e/2</link><guid>show</guid><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate></item>',
  '<item><title>Episode 1</title><link>/e/1</link><guid>show</guid><pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate></item>',
  '<item><title>Trailer</title><guid>show</guid><pubDate>Sun, 22 Nov 2026 10:00:00 GMT</pubDate></item>',
];
const source = await startFixtureServer((_request, response) => {
  builds++;
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Show</title><lastBuildDate>${builds}</lastBuildDate>${episodes.join('')}</channel></rss>`,
    );
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const created = await app.inject({
  method: 'POST',
  url: '/v1/feeds',
  headers: { authorization: alice, 'content-type': 'application/json' },
  payload: JSON.stringify({ url: `${source.url}/feed.xml` }),
});
const feedId = created.json<{ id: string }>().id;
const titles = async (): Promise<string[]> =>
  (await app.inject({ method: 'GET', url: `/v1/feeds/${feedId}`, headers: { authorization: alice } }))
    .json<{ items: { title: string }[] }>()
    .items.map((item) => item.title);

t.test('items sharing one guid are all kept', async (t) => {
  t.equal(created.statusCode, 200, created.body);
  t.same(await titles(), ['Episode 2', 'Episode 1', 'Trailer']);
});

t.test('refreshing the same items finds nothing new, and a new episode is the only news', async (t) => {
  const before = builds;
  t.equal((await refreshFeed(env.deps, feedId))?.status, 'unchanged', 'the same items keep their ids');
  t.ok(builds > before, 'the document was fetched and parsed again');
  episodes = [
    '<item><title>Episode 3</title><link>/e/3</link><guid>show</guid><pubDate>Wed, 25 Nov 2026 10:00:00 GMT</pubDate></item>',
    ...episodes,
  ];
  const outcome = await refreshFeed(env.deps, feedId);
  t.same(
    outcome?.fresh.map((item) => item.title),
    ['Episode 3'],
  );
  t.same(outcome?.changed, []);
  t.same(await titles(), ['Episode 3', 'Episode 2', 'Episode 1', 'Trailer']);
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${feedId}.xml` });
  const guids = [...hosted.body.matchAll(/<guid[^>]*>([^<]*)<\/guid>/g)].map((match) => match[1]);
  t.equal(new Set(guids).size, 4, 'the hosted feed gives each its own guid');
});
