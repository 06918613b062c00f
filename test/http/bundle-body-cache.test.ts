import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createCountingTestDeps } from '../fixtures/test-deps.js';

// The real embedded item store, with its item reads counted: a cached body needs none.
const env = createCountingTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const first = await startRssSource(2);
const second = await startRssSource(2);
t.teardown(async () => {
  await app.close();
  await first.close();
  await second.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, authorization = alice) =>
  app.inject({
    method,
    url,
    headers: body === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const feedA = (await send('POST', '/v1/feeds', { url: first.url })).json<{ id: string }>().id;
// Items do not name their feed; each source's links are on its own origin.
const fromA = (item: { url: string }): boolean => item.url.startsWith(new URL(first.url).origin);
const fromB = (item: { url: string }): boolean => item.url.startsWith(new URL(second.url).origin);
const feedB = (await send('POST', '/v1/feeds', { url: second.url })).json<{ id: string }>().id;
const bundleId = (await send('POST', '/v1/bundles', { name: 'Both', feeds: [feedA, feedB] })).json<{ id: string }>().id;

interface Shown {
  name: string;
  items: { title: string; url: string; authors: { name: string }[] }[];
}
const get = (query = '', authorization = alice) => send('GET', `/v1/bundles/${bundleId}${query}`, undefined, authorization);
const shown = async (): Promise<Shown> => {
  const response = await get();
  t.equal(response.statusCode, 200);
  t.match(response.headers['content-type'], /^application\/json; charset=utf-8/);
  return response.json<Shown>();
};

t.test('an unchanged bundle is merged and serialized once, and served byte for byte', async (t) => {
  const before = (await get()).body;
  const reads = env.reads();
  const again = await get();
  t.equal(env.reads(), reads, 'no item read for the second request');
  t.equal(again.body, before);
  t.equal(again.json<Shown>().items.length, 4, 'the items of both feeds');
});

t.test('another account still gets 404 for a bundle whose body is cached', async (t) => {
  const response = await get('', bob);
  t.equal(response.statusCode, 404);
  t.equal(response.json<{ errors: { code: string }[] }>().errors[0]?.code, 'bundle_not_found');
});

t.test("a member's refresh that brings a new item changes the body", async (t) => {
  await get();
  second.addItem('Fresh from B');
  t.equal((await refreshFeed(env.deps, feedB))?.status, 'changed');
  t.ok(
    (await shown()).items.some((item) => item.title === 'Fresh from B' && fromB(item)),
    'the new item is in the merged list',
  );
});

t.test("a member's refresh that finds nothing new keeps the cached body", async (t) => {
  const before = (await get()).body;
  t.equal((await refreshFeed(env.deps, feedA))?.status, 'not_modified');
  const reads = env.reads();
  t.equal((await get()).body, before);
  t.equal(env.reads(), reads, 'no item read: the bundle shows no feed health');
});

t.test("a member's customAuthor, the bundle's name and its sort each change the body", async (t) => {
  await send('PATCH', `/v1/feeds/${feedA}/settings`, { customAuthor: 'Desk A' });
  const ofA = (await shown()).items.filter(fromA);
  t.ok(
    ofA.length > 0 && ofA.every((item) => item.authors.every((author) => author.name === 'Desk A')),
    "feed A's items carry its custom author",
  );
  await send('PATCH', `/v1/bundles/${bundleId}`, { name: 'Renamed' });
  t.equal((await shown()).name, 'Renamed');
  const byDefault = (await get()).body;
  t.equal((await get('?sort=date')).statusCode, 200);
  t.equal((await get()).body, byDefault, 'a sort in the query is a body of its own');
});

t.test("a member's filter and its deletion change the body", async (t) => {
  const filtered = await send('PATCH', `/v1/feeds/${feedB}/settings`, {
    filters: { keep: { field: 'title', op: 'contains', value: 'Fresh' } },
  });
  t.equal(filtered.statusCode, 200);
  t.same(
    (await shown()).items.filter(fromB).map((item) => item.title),
    ['Fresh from B'],
    "only feed B's items that pass its filter",
  );
  t.equal((await send('DELETE', `/v1/feeds/${feedB}`)).statusCode, 200);
  const left = (await shown()).items;
  t.ok(left.length > 0 && left.every(fromA), "the deleted feed's items are gone");
});
