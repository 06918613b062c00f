import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { assertError } from '../fixtures/error-shape.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const source = await startRssSource(3);
const html = await startFixtureServer((request, response) => {
  if (request.url === '/data.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}');
  response
    .writeHead(200, { 'content-type': 'text/html' })
    .end('<!doctype html><html><head><title>Not a feed</title></head><body><p>hello</p></body></html>');
});
t.teardown(async () => {
  await app.close();
  await source.close();
  await html.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const aliceReader = await env.bearer('alice', ['read']);

const post = (url: string, body: unknown, authorization = alice) =>
  app.inject({ method: 'POST', url, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const get = (url: string, authorization = alice) => app.inject({ method: 'GET', url, headers: { authorization } });

interface ApiFeed {
  id: string;
  title: string;
  source_url: string;
  rss_feed_url: string;
  description: string;
  icon: string;
  items?: {
    url: string;
    title: string;
    description_text: string;
    description_html: string;
    thumbnail: string | null;
    authors: { name: string }[];
    date_published: string;
  }[];
}

const created = await post('/v1/feeds', { url: source.url });
const feed = created.json<ApiFeed>();

t.test('creating a feed from a native feed returns the feed with its items', async (t) => {
  t.equal(created.statusCode, 200);
  t.match(feed.id, /^[A-Za-z0-9_-]{16}$/, 'the id is 16 url-safe characters');
  t.equal(feed.title, 'Fixture & Co');
  t.equal(feed.source_url, source.url);
  t.equal(feed.rss_feed_url, `https://feeds.example.test/feeds/${feed.id}.xml`);
  t.equal(feed.items?.length, 3);
  const first = feed.items?.[0];
  t.equal(first?.title, 'Post 3', 'newest first');
  t.equal(first?.url, source.url.replace('/feed.xml', '/posts/3'));
  t.equal(first?.date_published, '2026-01-03T12:00:00.000Z', 'ISO 8601 UTC with milliseconds');
  t.equal(first?.description_text.trim(), 'Post 3');
  t.match(first?.description_html, /<b>3<\/b>/);
  t.same(first?.authors, [], 'no author is an empty array');
  t.equal(first?.thumbnail, null);
});

t.test('retrieving a feed returns it with items; another account cannot see it', async (t) => {
  const mine = await get(`/v1/feeds/${feed.id}`);
  t.equal(mine.statusCode, 200);
  t.equal(mine.json<ApiFeed>().items?.length, 3);
  assertError(t, await get(`/v1/feeds/${feed.id}`, bob), 404, 'feed_not_found');
  assertError(t, await get('/v1/feeds/not-an-id-at-all'), 404, 'feed_not_found');
});

t.test('every path variant reaches the same feed', async (t) => {
  for (const path of ['/v1/feed', '/api/v1/feeds', '/api/v1/feed']) {
    const response = await get(`${path}/${feed.id}`);
    t.equal(response.statusCode, 200, path);
    t.equal(response.json<ApiFeed>().id, feed.id, path);
  }
});

t.test('authentication: missing, malformed or wrong credentials are 401; a read key cannot write', async (t) => {
  assertError(t, await app.inject({ method: 'GET', url: '/v1/feeds' }), 401, 'unauthorized');
  assertError(t, await get('/v1/feeds', 'Bearer nocolon'), 401, 'unauthorized');
  assertError(t, await get('/v1/feeds', `${alice.slice(0, -2)}xx`), 401, 'unauthorized');
  assertError(t, await get('/v1/feeds', 'Basic abc:def'), 401, 'unauthorized');
  t.equal((await get('/v1/feeds', aliceReader)).statusCode, 200, 'a read key reads');
  assertError(t, await post('/v1/feeds', { url: source.url }, aliceReader), 403, 'forbidden');
});

t.test('listing feeds: envelope, newest first, limit and offset, $-aliases', async (t) => {
  const second = (await post('/v1/feeds', { url: source.url })).json<ApiFeed>();
  const third = (await post('/v1/feeds', { url: source.url })).json<ApiFeed>();
  const all = (await get('/v1/feeds')).json<{ total: number; offset: number; limit: number; data: ApiFeed[] }>();
  t.equal(all.total, 3);
  t.equal(all.offset, 0);
  t.equal(all.limit, 10);
  t.same(
    all.data.map((entry) => entry.id),
    [third.id, second.id, feed.id],
    'reverse chronological',
  );
  t.notOk('items' in (all.data[0] ?? {}), 'list entries carry no items');
  const page = (await get('/v1/feeds?limit=1&offset=1')).json<{ total: number; offset: number; limit: number; data: ApiFeed[] }>();
  t.same([page.total, page.offset, page.limit, page.data.map((entry) => entry.id)], [3, 1, 1, [second.id]]);
  const aliased = (await get('/v1/feeds?$limit=2&$offset=2')).json<{ data: ApiFeed[]; limit: number }>();
  t.same([aliased.limit, aliased.data.map((entry) => entry.id)], [2, [feed.id]]);
  t.same((await get('/v1/feeds?offset=50')).json<{ data: unknown[] }>().data, [], 'past the end is empty');
  t.equal((await get('/v1/feeds', bob)).json<{ total: number }>().total, 0, 'another account sees none of them');
  const { message } = assertError(t, await get('/v1/feeds?limit=0'), 400, 'validation_failed');
  t.equal(message, 'Expected `limit` to be an integer from 1 to 100, got "0"');
  assertError(t, await get('/v1/feeds?limit=101'), 400, 'validation_failed');
  assertError(t, await get('/v1/feeds?offset=-1'), 400, 'validation_failed');
  assertError(t, await get('/v1/feeds?limit=abc'), 400, 'validation_failed');
});

t.test('updating a feed changes title, description and icon and returns it without items', async (t) => {
  const response = await app.inject({
    method: 'PATCH',
    url: `/v1/feeds/${feed.id}`,
    headers: { authorization: alice, 'content-type': 'application/json' },
    payload: { title: 'Renamed', icon: 'https://example.test/i.png' },
  });
  t.equal(response.statusCode, 200);
  const updated = response.json<ApiFeed>();
  t.same([updated.title, updated.description, updated.icon], ['Renamed', 'A feed that grows', 'https://example.test/i.png']);
  t.notOk('items' in updated);
  t.equal((await get(`/v1/feeds/${feed.id}`)).json<ApiFeed>().title, 'Renamed', 'the change is stored');
  const foreign = await app.inject({
    method: 'PATCH',
    url: `/v1/feeds/${feed.id}`,
    headers: { authorization: bob },
    payload: { title: 'x' },
  });
  assertError(t, foreign, 404, 'feed_not_found');
});

t.test('a source that is not a feed, or cannot be reached, creates nothing', async (t) => {
  const before = (await get('/v1/feeds')).json<{ total: number }>().total;
  assertError(t, await post('/v1/feeds', { url: `${html.url}/data.json` }), 402, 'not_a_feed');
  const { message } = assertError(t, await post('/v1/feeds', { url: `${html.url}/page.html` }), 402, 'no_items_found');
  t.match(message, /articles|feed/, 'a page with neither a feed nor articles says what was looked for');
  assertError(t, await post('/v1/feeds', { url: 'http://127.0.0.1:1/feed.xml' }), 402, 'source_unreachable');
  assertError(t, await post('/v1/feeds', { url: 'ftp://example.test/feed' }), 400, 'invalid_url');
  assertError(t, await post('/v1/feeds', { url: 'not a url' }), 400, 'invalid_url');
  t.equal((await get('/v1/feeds')).json<{ total: number }>().total, before, 'no feed was created');
});

t.test('bad requests get the error shape: unknown route, bad JSON, wrong type, too large, unknown field', async (t) => {
  assertError(t, await get('/v1/nothing-here'), 404, 'route_not_found');
  assertError(t, await app.inject({ method: 'GET', url: '/nothing' }), 404, 'route_not_found');
  const badJson = await app.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { authorization: alice, 'content-type': 'application/json' },
    payload: '{"url":',
  });
  assertError(t, badJson, 400, 'invalid_json');
  const wrongType = await app.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { authorization: alice, 'content-type': 'text/plain' },
    payload: 'url',
  });
  assertError(t, wrongType, 415, 'unsupported_media_type');
  assertError(t, await post('/v1/feeds', { url: 'x'.repeat(70_000) }), 413, 'payload_too_large');
  const { message } = assertError(t, await post('/v1/feeds', { url: source.url, colour: 'red' }), 400, 'validation_failed');
  t.match(message, /colour/, 'the message names the unknown field');
  assertError(t, await post('/v1/feeds', {}), 400, 'validation_failed');
});

t.test('deleting a feed, then deleting it again, says it was already deleted', async (t) => {
  const target = (await post('/v1/feeds', { url: source.url })).json<ApiFeed>();
  const remove = () => app.inject({ method: 'DELETE', url: `/v1/feeds/${target.id}`, headers: { authorization: alice } });
  assertError(
    t,
    await app.inject({ method: 'DELETE', url: `/v1/feeds/${target.id}`, headers: { authorization: bob } }),
    404,
    'feed_not_found',
  );
  const first = await remove();
  t.equal(first.statusCode, 200);
  t.same(first.json(), { id: target.id, deleted: true });
  const { message } = assertError(t, await remove(), 404, 'feed_already_deleted');
  t.match(message, /already been deleted/);
  assertError(t, await get(`/v1/feeds/${target.id}`), 404, 'feed_not_found');
  t.equal((await app.inject({ method: 'GET', url: `/feeds/${target.id}.xml` })).statusCode, 404, 'its hosted feed is gone');
});

t.test('the hosted feed is RSS 2.0 without authentication and answers conditional GETs', async (t) => {
  const response = await app.inject({ method: 'GET', url: `/feeds/${feed.id}.xml` });
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/rss\+xml/);
  t.match(response.body, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
  t.match(response.body, /<title>Renamed<\/title>/);
  t.equal(response.body.match(/<item>/g)?.length, 3);
  const etag = String(response.headers.etag);
  const lastModified = String(response.headers['last-modified']);
  t.ok(etag && lastModified, 'ETag and Last-Modified are sent');
  t.equal((await app.inject({ method: 'GET', url: `/feeds/${feed.id}.xml`, headers: { 'if-none-match': etag } })).statusCode, 304);
  t.equal(
    (await app.inject({ method: 'GET', url: `/feeds/${feed.id}.xml`, headers: { 'if-modified-since': lastModified } })).statusCode,
    304,
  );
  t.equal((await app.inject({ method: 'GET', url: `/feeds/${feed.id}.xml`, headers: { 'if-none-match': '"other"' } })).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: '/feeds/AAAAAAAAAAAAAAAA.xml' })).statusCode, 404);
});
