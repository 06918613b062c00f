import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { buildHttpApp } from '../../src/http/app.js';
import { createResponseCache } from '../../src/http/response-cache.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createCountingTestDeps } from '../fixtures/test-deps.js';

// The real embedded item store, with its item reads counted: a cached body needs none.
const env = createCountingTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const source = await startRssSource(3);
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
interface Shown {
  title: string;
  items: { title: string; authors: { name: string }[] }[];
}
const created = await app.inject({
  method: 'POST',
  url: '/v1/feeds',
  headers: { authorization: alice, 'content-type': 'application/json' },
  payload: JSON.stringify({ url: source.url }),
});
const feedId = created.json<{ id: string }>().id;
const get = (query = '', authorization = alice) =>
  app.inject({ method: 'GET', url: `/v1/feeds/${feedId}${query}`, headers: { authorization } });
const patch = (url: string, body: unknown) =>
  app.inject({
    method: 'PATCH',
    url,
    headers: { authorization: alice, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const shown = async (query = ''): Promise<Shown> => {
  const response = await get(query);
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/json; charset=utf-8/);
  return response.json<Shown>();
};

t.test('an unchanged feed is read from the store and serialized once, and served byte for byte', async (t) => {
  const first = await get();
  const before = env.reads();
  const again = await get();
  t.equal(env.reads(), before, 'no item read for the second request');
  t.equal(again.body, first.body);
  t.same(again.json(), created.json(), 'the same document POST /v1/feeds returned');
});

t.test('another account still gets 404 for a feed whose body is cached', async (t) => {
  const response = await get('', bob);
  t.equal(response.statusCode, 404);
  t.equal(response.json<{ errors: { code: string }[] }>().errors[0]?.code, 'feed_not_found');
});

t.test('a refresh that brings a new item changes the body', async (t) => {
  await get();
  source.addItem('Post 4');
  t.equal((await refreshFeed(env.deps, feedId))?.status, 'changed');
  t.same(
    (await shown()).items.map((item) => item.title),
    ['Post 4', 'Post 3', 'Post 2', 'Post 1'],
  );
});

t.test('a refresh that changes an item changes the body', async (t) => {
  await get();
  source.retitle(2, 'Post 2, corrected');
  t.equal((await refreshFeed(env.deps, feedId))?.status, 'changed');
  t.equal((await shown()).items[2]?.title, 'Post 2, corrected');
});

t.test('a refresh that finds nothing new changes only the status, and the new body is cached again', async (t) => {
  const earlier = (await get()).json<Shown & { status: { last_outcome: string; last_fetched_at: string } }>();
  t.equal((await refreshFeed(env.deps, feedId))?.status, 'not_modified');
  const later = (await get()).json<Shown & { status: { last_outcome: string; last_fetched_at: string } }>();
  t.equal(later.status.last_outcome, 'not_modified', 'the status a client sees is never a cached one');
  t.not(later.status.last_fetched_at, earlier.status.last_fetched_at);
  t.same({ ...later, status: undefined }, { ...earlier, status: undefined }, 'nothing else changed');
  const before = env.reads();
  await get();
  t.equal(env.reads(), before, 'no item read for the next request');
});

t.test('customAuthor and sort settings change the body; resetting them restores it', async (t) => {
  const original = (await get()).body;
  await patch(`/v1/feeds/${feedId}/settings`, { customAuthor: 'Newsroom Bot' });
  t.same(new Set((await shown()).items.flatMap((item) => item.authors.map((author) => author.name))), new Set(['Newsroom Bot']));
  await patch(`/v1/feeds/${feedId}/settings`, { customAuthor: null });
  t.equal((await get()).body, original);
  // Items were published on 2026-01-01…03 and 4 days later; added in the order 1, 2, 3 then 4.
  await patch(`/v1/feeds/${feedId}/settings`, { sort: 'date' });
  t.same((await shown()).items.map((item) => item.title).slice(0, 1), ['Post 4']);
  await patch(`/v1/feeds/${feedId}/settings`, { sort: 'last_added' });
  t.equal((await get()).body, original);
});

t.test('a sort in the query is a body of its own, and does not replace the default one', async (t) => {
  const byDefault = (await get()).body;
  const byDate = await get('?sort=date');
  t.equal(byDate.statusCode, 200);
  t.equal((await get()).body, byDefault);
});

t.test('editing the feed changes the body', async (t) => {
  await get();
  await patch(`/v1/feeds/${feedId}`, { title: 'Renamed' });
  t.equal((await shown()).title, 'Renamed');
});

t.test('the byte cache drops the least recently used bodies past its budget', async (t) => {
  const cache = createResponseCache(10);
  let made = 0;
  const make = (text: string) => async () => {
    made += 1;
    return Buffer.from(text);
  };
  await cache.get('a', '1', make('aaaa'));
  await cache.get('b', '1', make('bbbb'));
  await cache.get('a', '1', make('never'));
  t.equal(made, 2, 'a hit makes nothing');
  await cache.get('c', '1', make('cccc'));
  t.equal(cache.bytes, 8, 'b, the least recently used, went to stay within 10 bytes');
  t.equal((await cache.get('a', '1', make('again'))).toString(), 'aaaa');
  t.equal((await cache.get('b', '1', make('b again'))).toString(), 'b again');
  t.equal((await cache.get('c', '2', make('c v2'))).toString(), 'c v2', 'a new version replaces the old bytes');
  t.equal((await cache.get('huge', '1', make('x'.repeat(50)))).length, 50, 'a body over the budget is still served');
});
