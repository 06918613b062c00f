import t from 'tap';
import { passingEvent } from '../../src/app/event-filters.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import { parseFilter } from '../../src/domain/item-filter.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A source whose items carry categories; it counts requests, so a test can prove nothing was refetched.
const posts = [
  { title: 'Rust 2.0 released', category: 'Programming' },
  { title: 'Sponsored: buy this', category: 'Ads' },
  { title: 'Match report', category: 'Sport' },
];
let requests = 0;
const source = await startFixtureServer((_request, response) => {
  requests += 1;
  const items = posts
    .map(
      (post, n) =>
        `<item><title>${post.title}</title><link>https://example.com/${n}</link><guid>urn:post:${n}</guid><category>${post.category}</category></item>`,
    )
    .join('');
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end(`<rss version="2.0"><channel><title>Filters</title>${items}</channel></rss>`);
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: alice, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
const feedId = (await call('POST', '/v1/feeds', { url: `${source.url}/feed.xml` })).json<{ id: string }>().id;
const bundleId = (await call('POST', '/v1/bundles', { name: 'All', feeds: [feedId] })).json<{ id: string }>().id;
const titles = async (url: string): Promise<string[]> =>
  (await call('GET', url))
    .json<{ items: { title: string }[] }>()
    .items.map((item) => item.title)
    .sort();
const hostedTitles = async (id: string): Promise<string[]> =>
  [...(await app.inject({ method: 'GET', url: `/feeds/${id}.xml` })).body.matchAll(/<item>\s*<title>([^<]*)<\/title>/g)]
    .map((match) => match[1] ?? '')
    .sort();
const blockAds = {
  block: {
    any: [
      { field: 'category', op: 'contains', value: 'ads' },
      { field: 'title', op: 'matches', value: '^sponsored' },
    ],
  },
};

t.test('a block filter drops items from the feed, its hosted output and the bundles it is in', async (t) => {
  t.equal((await titles(`/v1/feeds/${feedId}`)).length, 3, 'all three before');
  const set = await call('PATCH', `/v1/feeds/${feedId}/settings`, { filters: blockAds });
  t.equal(set.statusCode, 200);
  t.same(set.json<{ filters: unknown }>().filters, { keep: null, ...blockAds });
  t.same(await titles(`/v1/feeds/${feedId}`), ['Match report', 'Rust 2.0 released']);
  t.same(await hostedTitles(feedId), ['Match report', 'Rust 2.0 released'], 'the hosted RSS too');
  t.same(await titles(`/v1/bundles/${bundleId}`), ['Match report', 'Rust 2.0 released'], 'and the bundle');
  t.same(await hostedTitles(bundleId), ['Match report', 'Rust 2.0 released'], "and the bundle's hosted RSS");
});

t.test('changing a filter re-applies it to stored items at once, without fetching the source', async (t) => {
  const before = requests;
  await call('PATCH', `/v1/feeds/${feedId}/settings`, { filters: { keep: { field: 'category', op: 'contains', value: 'programming' } } });
  t.same(await titles(`/v1/feeds/${feedId}`), ['Rust 2.0 released'], 'keep and block together');
  t.same(await hostedTitles(feedId), ['Rust 2.0 released']);
  await call('PATCH', `/v1/feeds/${feedId}/settings`, { filters: null });
  t.equal((await titles(`/v1/feeds/${feedId}`)).length, 3, 'null removes both: everything is back');
  t.equal((await hostedTitles(feedId)).length, 3);
  t.equal(requests, before, 'the source was not asked again');
});

t.test('a filter that is not one is refused with where and why, and nothing changes', async (t) => {
  const refused = await call('PATCH', `/v1/feeds/${feedId}/settings`, {
    filters: { block: { field: 'date_published', op: 'contains', value: '2026' } },
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.json<{ message: string }>().message, /date_published|older_than/);
  t.same((await call('GET', `/v1/feeds/${feedId}/settings`)).json<{ filters: unknown }>().filters, { keep: null, block: null });
});

t.test('the preview marks recent items kept or dropped, with the condition that decided, and saves nothing', async (t) => {
  const preview = await call('POST', `/v1/feeds/${feedId}/filters/preview`, { filters: blockAds });
  t.equal(preview.statusCode, 200);
  const body = preview.json<{
    kept: number;
    dropped: number;
    data: { item: { title: string }; kept: boolean; decided_by: { rule: string; path: string; condition: { field: string } } | null }[];
  }>();
  t.equal(body.kept, 2);
  t.equal(body.dropped, 1);
  const sponsored = body.data.find((entry) => entry.item.title.startsWith('Sponsored'));
  t.match(sponsored, { kept: false, decided_by: { rule: 'block', path: 'block.any[0]', condition: { field: 'category' } } });
  t.match(
    body.data.find((entry) => entry.item.title === 'Match report'),
    { kept: true, decided_by: { rule: 'block', path: 'block.any[1]' } },
  );
  t.same(
    (await call('GET', `/v1/feeds/${feedId}/settings`)).json<{ filters: unknown }>().filters,
    { keep: null, block: null },
    'nothing saved',
  );
  t.equal((await titles(`/v1/feeds/${feedId}`)).length, 3);
  const bad = await call('POST', `/v1/feeds/${feedId}/filters/preview`, {
    filters: { keep: { field: 'title', op: 'matches', value: '(?<=a)b' } },
  });
  t.equal(bad.statusCode, 400, 'checked as when saved');
});

t.test('items the feed filters drop are announced to no one (webhooks, subscriptions, the event stream)', async (t) => {
  await call('PATCH', `/v1/feeds/${feedId}/settings`, { filters: blockAds });
  t.teardown(async () => void (await call('PATCH', `/v1/feeds/${feedId}/settings`, { filters: null })));
  const events: FeedEventEnvelope[] = [];
  const unsubscribe = env.deps.bus.subscribe('alice', (envelope) => void events.push(envelope));
  t.teardown(unsubscribe);
  posts.push({ title: 'Sponsored: more', category: 'Ads' }, { title: 'New crate', category: 'Programming' });
  await refreshFeed(env.deps, feedId);
  t.equal(events.length, 1, 'one event');
  t.same(
    events[0]?.event.data.items_new.map((item) => item.title),
    ['New crate'],
    'without the blocked item',
  );
  posts.push({ title: 'Sponsored: again', category: 'Ads' });
  await refreshFeed(env.deps, feedId);
  t.equal(events.length, 1, 'a refresh that brings only blocked items announces nothing');
});

t.test('bundle settings: keep/block filters over the merged items, in the bundle and its hosted output, with a dry run', async (t) => {
  const other = (await call('POST', '/v1/feeds', { url: `${source.url}/other.xml` })).json<{ id: string }>().id;
  const bundle = (await call('POST', '/v1/bundles', { name: 'Two', feeds: [feedId, other] })).json<{ id: string }>().id;
  t.same((await call('GET', `/v1/bundles/${bundle}/settings`)).json(), { sort: 'last_added', filters: { keep: null, block: null } });
  const all = await titles(`/v1/bundles/${bundle}`);
  const sport = { block: { field: 'category', op: 'contains', value: 'sport' } };

  const preview = (await call('POST', `/v1/bundles/${bundle}/filters/preview`, { filters: sport })).json<{
    kept: number;
    dropped: number;
    data: { item: { title: string }; kept: boolean; decided_by: { rule: string } }[];
  }>();
  t.equal(preview.dropped, 1, 'the one sport item (both feeds carry it, the bundle shows it once)');
  t.match(
    preview.data.find((entry) => entry.item.title === 'Match report'),
    { kept: false, decided_by: { rule: 'block' } },
  );
  t.same(await titles(`/v1/bundles/${bundle}`), all, 'the dry run saved nothing');

  const set = await call('PATCH', `/v1/bundles/${bundle}/settings`, { filters: sport });
  t.equal(set.statusCode, 200);
  t.same(set.json(), { sort: 'last_added', filters: { keep: null, ...sport } });
  t.same(
    await titles(`/v1/bundles/${bundle}`),
    all.filter((title) => title !== 'Match report'),
  );
  t.notOk((await hostedTitles(bundle)).includes('Match report'), 'nor in its hosted RSS');
  t.ok((await titles(`/v1/feeds/${feedId}`)).includes('Match report'), 'the member feed itself is unaffected');
  await call('PATCH', `/v1/bundles/${bundle}/settings`, { filters: null });
  t.same(await titles(`/v1/bundles/${bundle}`), all, 'null removes them');
  t.equal(
    (await call('PATCH', `/v1/bundles/${bundle}/settings`, { filters: { keep: { field: 'nope', op: 'contains', value: 'x' } } }))
      .statusCode,
    400,
  );
});

// Last: the items it adds would change what the tests above count.
t.test("a webhook's own filter judges categories, which the event's envelope carries", async (t) => {
  const events: FeedEventEnvelope[] = [];
  const unsubscribe = env.deps.bus.subscribe('alice', (envelope) => void events.push(envelope));
  t.teardown(unsubscribe);
  posts.push({ title: 'Cup final', category: 'Sport' }, { title: 'Borrow checker', category: 'Programming' });
  await refreshFeed(env.deps, feedId);
  const envelope = events[0];
  t.ok(envelope, 'an event');
  if (!envelope) return;
  const announced = envelope.event.data.items_new.map((item, index) => [item.title, envelope.itemCategories?.[index]]);
  t.same(
    announced.sort(),
    [
      ['Borrow checker', ['Programming']],
      ['Cup final', ['Sport']],
    ],
    'each item with its categories, in event order',
  );
  t.notOk(JSON.stringify(envelope.event).includes('Programming'), "the event sent stays the spec's object, without categories");
  // The item store is not asked: dispatch judges the envelope as it is.
  const sport = parseFilter({ field: 'category', op: 'contains', value: 'sport' });
  const passed = await passingEvent(env.deps, { accountId: envelope.accountId }, envelope, sport);
  t.same(
    passed?.data.items_new.map((item) => item.title),
    ['Cup final'],
  );
  const ads = parseFilter({ field: 'category', op: 'contains', value: 'ads' });
  t.equal(await passingEvent(env.deps, { accountId: envelope.accountId }, envelope, ads), undefined, 'nothing left: no delivery');
});
