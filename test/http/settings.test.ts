import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const source = await startRssSource(3);
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});
const alice = apiClient(app, await env.bearer('alice'));
const reader = apiClient(app, await env.bearer('alice', ['read']));
const bob = apiClient(app, await env.bearer('bob'));
const feedId = (await alice.post('/v1/feeds', { url: source.url })).json<{ id: string }>().id;

interface Item {
  title: string;
  authors: { name: string }[];
}

t.test('a new feed has default settings', async (t) => {
  const response = await alice.get(`/v1/feeds/${feedId}/settings`);
  t.equal(response.statusCode, 200);
  t.same(response.json(), {
    customAuthor: null,
    sort: 'last_added',
    paused: false,
    min_interval: null,
    filters: { keep: null, block: null },
    full_text: false,
    full_text_rules: null,
    selectors: null,
    fetch: null,
    render: 'auto',
  });
  assertError(t, await bob.get(`/v1/feeds/${feedId}/settings`), 404, 'feed_not_found');
});

t.test('customAuthor replaces every item’s authors in responses and the hosted feed; null resets it', async (t) => {
  const set = await alice.patch(`/v1/feeds/${feedId}/settings`, { customAuthor: 'Newsroom Bot' });
  t.same(set.json(), {
    customAuthor: 'Newsroom Bot',
    sort: 'last_added',
    paused: false,
    min_interval: null,
    filters: { keep: null, block: null },
    full_text: false,
    full_text_rules: null,
    selectors: null,
    fetch: null,
    render: 'auto',
  });
  const items = (await alice.get(`/v1/feeds/${feedId}`)).json<{ items: Item[] }>().items;
  t.ok(items.length > 0 && items.every((item) => item.authors.length === 1 && item.authors[0]?.name === 'Newsroom Bot'));
  const hosted = await app.inject({ method: 'GET', url: `/feeds/${feedId}.xml` });
  t.equal(hosted.body.match(/<dc:creator>Newsroom Bot<\/dc:creator>/g)?.length, items.length);
  const reset = await alice.patch(`/v1/feeds/${feedId}/settings`, { customAuthor: null });
  t.same(reset.json(), {
    customAuthor: null,
    sort: 'last_added',
    paused: false,
    min_interval: null,
    filters: { keep: null, block: null },
    full_text: false,
    full_text_rules: null,
    selectors: null,
    fetch: null,
    render: 'auto',
  });
  const after = (await alice.get(`/v1/feeds/${feedId}`)).json<{ items: Item[] }>().items;
  t.ok(
    after.every((item) => item.authors.length === 0),
    'the source authors are back (none here)',
  );
});

t.test('sort is the default order when a request gives none', async (t) => {
  await alice.patch(`/v1/feeds/${feedId}/settings`, { sort: 'date' });
  t.same((await alice.get(`/v1/feeds/${feedId}/settings`)).json(), {
    customAuthor: null,
    sort: 'date',
    paused: false,
    min_interval: null,
    filters: { keep: null, block: null },
    full_text: false,
    full_text_rules: null,
    selectors: null,
    fetch: null,
    render: 'auto',
  });
  const titles = (await alice.get(`/v1/feeds/${feedId}`)).json<{ items: Item[] }>().items.map((item) => item.title);
  t.same(titles, ['Post 3', 'Post 2', 'Post 1']);
  assertError(t, await alice.patch(`/v1/feeds/${feedId}/settings`, { sort: 'random' }), 400, 'validation_failed');
  assertError(t, await alice.patch(`/v1/feeds/${feedId}/settings`, { customAuthor: 42 }), 400, 'validation_failed');
  assertError(t, await alice.patch(`/v1/feeds/${feedId}/settings`, { colour: 'red' }), 400, 'validation_failed');
  assertError(t, await reader.patch(`/v1/feeds/${feedId}/settings`, { sort: 'date' }), 403, 'forbidden');
});
