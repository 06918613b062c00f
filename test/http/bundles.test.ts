import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const sourceA = await startRssSource(2);
const sourceB = await startRssSource(3);
t.teardown(async () => {
  await app.close();
  await sourceA.close();
  await sourceB.close();
  await env.close();
});

const alice = apiClient(app, await env.bearer('alice'));
const bob = apiClient(app, await env.bearer('bob'));

interface ApiBundle {
  id: string;
  name: string;
  description: string;
  icon: string;
  rss_feed_url: string;
  feeds: string[];
  items?: { title: string; url: string; authors: { name: string }[] }[];
}

const feedA = (await alice.post('/v1/feeds', { url: sourceA.url })).json<{ id: string }>().id;
const feedB = (await alice.post('/v1/feeds', { url: sourceB.url })).json<{ id: string }>().id;
const bobFeed = (await bob.post('/v1/feeds', { url: sourceA.url })).json<{ id: string }>().id;

t.test('creating a bundle returns it with the merged items of its feeds', async (t) => {
  const response = await alice.post('/v1/bundles', { name: 'Morning', feeds: [feedA, feedB] });
  t.equal(response.statusCode, 200);
  const bundle = response.json<ApiBundle>();
  t.match(bundle.id, /^_[A-Za-z0-9_-]{16}$/, 'the id starts with an underscore');
  t.same([bundle.name, bundle.description, bundle.icon, bundle.feeds], ['Morning', '', '', [feedA, feedB]]);
  t.equal(bundle.rss_feed_url, `https://feeds.example.test/feeds/${bundle.id}.xml`);
  t.equal(bundle.items?.length, 5, 'items of both feeds');
});

t.test('the same article in two feeds appears once in the bundle', async (t) => {
  const twin = (await alice.post('/v1/feeds', { url: sourceA.url })).json<{ id: string }>().id;
  const bundle = (await alice.post('/v1/bundles', { name: 'Twins', feeds: [feedA, twin] })).json<ApiBundle>();
  t.equal(bundle.items?.length, 2);
  t.equal(new Set(bundle.items?.map((item) => item.url)).size, 2);
});

t.test('a bundle cannot hold a feed that is not the caller’s', async (t) => {
  assertError(t, await alice.post('/v1/bundles', { name: 'x', feeds: [bobFeed] }), 404, 'feed_not_found');
  assertError(t, await alice.post('/v1/bundles', { name: 'x', feeds: ['nope'] }), 404, 'feed_not_found');
  assertError(t, await alice.post('/v1/bundles', { feeds: [] }), 400, 'validation_failed');
  assertError(t, await alice.post('/v1/bundles', { name: 'x' }), 400, 'validation_failed');
});

t.test('retrieve, sort, list, update', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Work', feeds: [feedB] })).json<ApiBundle>();
  const got = await alice.get(`/v1/bundles/${bundle.id}?sort=date`);
  t.equal(got.statusCode, 200);
  t.same(
    got.json<ApiBundle>().items?.map((item) => item.title),
    ['Post 3', 'Post 2', 'Post 1'],
    'newest first by date',
  );
  assertError(t, await alice.get(`/v1/bundles/${bundle.id}?sort=oldest`), 400, 'validation_failed');
  assertError(t, await bob.get(`/v1/bundles/${bundle.id}`), 404, 'bundle_not_found');
  const list = (await alice.get('/v1/bundles?limit=2')).json<{ total: number; limit: number; offset: number; data: ApiBundle[] }>();
  t.same([list.total, list.limit, list.offset, list.data.length], [3, 2, 0, 2]);
  t.equal(list.data[0]?.id, bundle.id, 'newest first');
  t.notOk('items' in (list.data[0] ?? {}), 'list entries carry no items');
  const updated = await alice.patch(`/v1/bundles/${bundle.id}`, {
    name: 'Work (new)',
    description: 'Daily',
    icon: 'https://example.test/b.png',
  });
  t.equal(updated.statusCode, 200);
  t.match(updated.json<ApiBundle>(), { name: 'Work (new)', description: 'Daily', icon: 'https://example.test/b.png' });
  t.equal(updated.json<ApiBundle>().items?.length, 3, 'the update response carries items');
});

t.test('adding and removing feeds, through both path forms', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Grow', feeds: [] })).json<ApiBundle>();
  t.same(bundle.items, [], 'an empty bundle has no items');
  const added = await alice.put(`/v1/bundles/${bundle.id}/feeds/${feedA}`);
  t.equal(added.statusCode, 200);
  t.same(added.json<ApiBundle>().feeds, [feedA]);
  t.equal(added.json<ApiBundle>().items?.length, 2, 'the add response carries items');
  t.same((await alice.put(`/v1/bundles/${bundle.id}/feeds/${feedA}`)).json<ApiBundle>().feeds, [feedA], 'adding twice is harmless');
  assertError(t, await alice.put(`/v1/bundles/${bundle.id}/feeds/${bobFeed}`), 404, 'feed_not_found');
  const removed = await alice.delete(`/v1/bundled/${bundle.id}/feeds/${feedA}`);
  t.equal(removed.statusCode, 200);
  t.same(removed.json<ApiBundle>().feeds, []);
  t.notOk('items' in removed.json<ApiBundle>(), 'the remove response carries no items');
  assertError(t, await alice.delete(`/v1/bundles/${bundle.id}/feeds/${feedA}`), 404, 'feed_not_found');
});

t.test('deleting a feed removes it from every bundle', async (t) => {
  const doomed = (await alice.post('/v1/feeds', { url: sourceB.url })).json<{ id: string }>().id;
  const one = (await alice.post('/v1/bundles', { name: 'One', feeds: [feedA, doomed] })).json<ApiBundle>();
  const two = (await alice.post('/v1/bundles', { name: 'Two', feeds: [doomed] })).json<ApiBundle>();
  t.equal((await alice.delete(`/v1/feeds/${doomed}`)).statusCode, 200);
  t.same((await alice.get(`/v1/bundles/${one.id}`)).json<ApiBundle>().feeds, [feedA]);
  t.same((await alice.get(`/v1/bundles/${two.id}`)).json<ApiBundle>().feeds, []);
});

t.test('deleting a bundle twice says it was already deleted', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Gone', feeds: [feedA] })).json<ApiBundle>();
  assertError(t, await bob.delete(`/v1/bundles/${bundle.id}`), 404, 'bundle_not_found');
  const first = await alice.delete(`/v1/bundles/${bundle.id}`);
  t.same(first.json(), { id: bundle.id, deleted: true });
  const { message } = assertError(t, await alice.delete(`/v1/bundles/${bundle.id}`), 404, 'bundle_already_deleted');
  t.match(message, /already been deleted/);
  assertError(t, await alice.get(`/v1/bundles/${bundle.id}`), 404, 'bundle_not_found');
  assertError(t, await alice.put(`/v1/bundles/${bundle.id}/feeds/${feedA}`), 404, 'bundle_not_found');
  t.equal((await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml` })).statusCode, 404, 'its hosted feed is gone');
});

t.test('a bundle is hosted as RSS 2.0 of its merged items', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Hosted & merged', feeds: [feedA, feedB] })).json<ApiBundle>();
  const response = await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml` });
  t.equal(response.statusCode, 200);
  t.match(response.body, /<title>Hosted &amp; merged<\/title>/);
  t.equal(response.body.match(/<item>/g)?.length, 5);
  const etag = String(response.headers.etag);
  t.equal((await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml`, headers: { 'if-none-match': etag } })).statusCode, 304);
  await alice.patch(`/v1/bundles/${bundle.id}`, { name: 'Renamed' });
  const after = await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml`, headers: { 'if-none-match': etag } });
  t.equal(after.statusCode, 200, 'a change makes a new version');
  t.match(after.body, /<title>Renamed<\/title>/);
});
