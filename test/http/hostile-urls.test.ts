import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { assertError } from '../fixtures/error-shape.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

/** A source whose every URL is a script, spelled the ways a browser would still run it. */
const hostileRss = `<?xml version="1.0"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
<channel><title>Hostile source</title><link>javascript:alert(1)</link><description>d</description>
<image><url>JaVaScRiPt:alert(1)</url><title>x</title><link>javascript:alert(1)</link></image>
<item><title>Scripted</title><guid isPermaLink="false">1</guid><link>  java&#9;script:alert(1)</link>
  <media:thumbnail url="javascript:alert(1)"/><enclosure url="data:text/html;base64,PHNjcmlwdD4=" type="text/html" length="1"/>
  <description><![CDATA[<p><a href="&#106;avascript:alert(1)">a</a><img src="data:image/svg+xml;base64,PHN2Zz4=" alt="i"></p>]]></description>
  <pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const source = await startFixtureServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(hostileRss);
});
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const send = (method: 'POST' | 'PATCH', url: string, body: unknown) =>
  app.inject({ method, url, headers: { authorization: alice, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

interface ApiFeed {
  id: string;
  icon: string;
  items: { url: string; thumbnail: string | null; description_html: string }[];
}

const created = await send('POST', '/v1/feeds', { url: `${source.url}/feed.xml` });
const feed = created.json<ApiFeed>();
const scripted = /javascript|data:|alert/i;

t.test('a hostile source yields no hostile URL in the API', async (t) => {
  t.equal(created.statusCode, 200, created.body);
  t.equal(feed.icon, '');
  t.same(
    feed.items.map((item) => [item.url, item.thumbnail]),
    [['', null]],
  );
  t.equal(feed.items[0]?.description_html, '<p><a>a</a><img alt="i" /></p>');
  t.notMatch(created.body, scripted);
});

t.test('a hostile source never reaches the hosted feed', async (t) => {
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${feed.id}.xml` });
  t.equal(hosted.statusCode, 200);
  t.match(hosted.body, /Scripted/, 'the item is there');
  t.notMatch(hosted.body, scripted, 'its URLs are not');
});

t.test('PATCH refuses an icon that is not an absolute http(s) URL, in our error shape', async (t) => {
  for (const icon of ['javascript:alert(1)', ' JAVA\tSCRIPT:alert(1)', 'data:image/svg+xml;base64,PHN2Zz4=', '/relative.png']) {
    const { message } = assertError(t, await send('PATCH', `/v1/feeds/${feed.id}`, { icon }), 400, 'invalid_url');
    t.match(message, /^Expected `(body\.)?icon` to be an absolute http or https URL/, JSON.stringify(icon));
  }
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${feed.id}.xml` });
  t.notMatch(hosted.body, scripted, 'nothing refused was stored');
  const accepted = await send('PATCH', `/v1/feeds/${feed.id}`, { icon: 'https://example.test/i.png' });
  t.equal(accepted.json<ApiFeed>().icon, 'https://example.test/i.png', 'an https icon is stored');
  t.equal((await send('PATCH', `/v1/feeds/${feed.id}`, { icon: '' })).json<ApiFeed>().icon, '', '"" removes it');
});

t.test('PATCH refuses an empty or overlong title', async (t) => {
  assertError(t, await send('PATCH', `/v1/feeds/${feed.id}`, { title: '' }), 400, 'validation_failed');
  assertError(t, await send('PATCH', `/v1/feeds/${feed.id}`, { title: 'x'.repeat(501) }), 400, 'validation_failed');
  t.equal((await send('PATCH', `/v1/feeds/${feed.id}`, { title: 'x'.repeat(500) })).statusCode, 200, '500 characters are fine');
});

t.test('a bundle icon follows the same rule', async (t) => {
  const bundle = (await send('POST', '/v1/bundles', { name: 'Hostile', feeds: [feed.id] })).json<{ id: string }>();
  assertError(t, await send('PATCH', `/v1/bundles/${bundle.id}`, { icon: 'javascript:alert(1)' }), 400, 'invalid_url');
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml` });
  t.equal(hosted.statusCode, 200);
  t.notMatch(hosted.body, scripted);
  t.equal((await send('PATCH', `/v1/bundles/${bundle.id}`, { icon: 'http://example.test/b.png' })).statusCode, 200);
});

t.test('URLs stored before the rule existed are not shown', async (t) => {
  // Written straight to the stores, as an older version (or a bug) could have left them.
  const other = (await send('POST', '/v1/feeds', { url: `${source.url}/old.xml` })).json<ApiFeed>();
  await env.deps.feeds.update('alice', other.id, { icon: 'javascript:alert(1)' }, new Date().toISOString());
  const { version } = await env.deps.items.known(other.id);
  await env.deps.items.commit(other.id, version, [
    {
      feedId: other.id,
      key: 'g:old',
      contentHash: 'x',
      addedAt: '2026-11-01T00:00:00.000Z',
      publishedAt: '2026-11-01T00:00:00.000Z',
      url: 'javascript:alert(1)',
      title: 'Stored long ago',
      description_text: '',
      description_html: '',
      thumbnail: 'data:image/svg+xml,<svg/>',
      authors: [],
      date_published: null,
      categories: [],
      enclosures: [{ url: 'vbscript:x', type: 'audio/mpeg' }],
    },
  ]);
  const shown = await app.inject({ method: 'GET', url: `/v1/feeds/${other.id}`, headers: { authorization: alice } });
  t.match(shown.body, /Stored long ago/);
  t.notMatch(shown.body, /javascript|vbscript|data:/);
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${other.id}.xml` });
  t.match(hosted.body, /Stored long ago/);
  t.notMatch(hosted.body, /javascript|vbscript|data:/);
});
