import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startRssSource(3);
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = await env.bearer('alice');

const feed = await graphql<{ createFeed: { id: string; items: { title: string }[] } }>(yoga, alice, 'mutation ($url: String!) { createFeed(url: $url) { id items { title } } }', { url: source.url });
const feedId = feed.data?.createFeed.id ?? '';
const first = feed.data?.createFeed.items[0]?.title ?? '';
const block = JSON.stringify({ block: { field: 'title', op: 'contains', value: first } });

t.test('feed filters travel as JSON in the settings, and drop items from Feed.items', async (t) => {
  const set = await graphql<{ updateFeedSettings: { filters: string } }>(yoga, alice, 'mutation ($id: ID!, $f: String) { updateFeedSettings(feedId: $id, filters: $f) { filters } }', { id: feedId, f: block });
  t.same(JSON.parse(set.data?.updateFeedSettings.filters ?? '{}'), { keep: null, ...(JSON.parse(block) as object) });
  const shown = await graphql<{ feed: { items: { title: string }[] } }>(yoga, alice, 'query ($id: ID!) { feed(id: $id) { items { title } } }', { id: feedId });
  t.notOk(shown.data?.feed.items.some((item) => item.title === first), 'the blocked item is not shown');
  await graphql(yoga, alice, 'mutation ($id: ID!) { updateFeedSettings(feedId: $id, filters: null) { filters } }', { id: feedId });
});

t.test('bundle settings carry keep/block filters too', async (t) => {
  const bundle = await graphql<{ createBundle: { id: string } }>(yoga, alice, 'mutation ($f: [ID!]!) { createBundle(name: "B", feeds: $f) { id } }', { f: [feedId] });
  const bundleId = bundle.data?.createBundle.id ?? '';
  const set = await graphql<{ updateBundleSettings: { sort: string; filters: string } }>(yoga, alice, 'mutation ($id: ID!, $f: String) { updateBundleSettings(bundleId: $id, filters: $f) { sort filters } }', { id: bundleId, f: block });
  t.equal(set.data?.updateBundleSettings.sort, 'last_added');
  const shown = await graphql<{ bundle: { settings: { filters: string }; items: { title: string }[] } }>(yoga, alice, 'query ($id: ID!) { bundle(id: $id) { settings { filters } items { title } } }', { id: bundleId });
  t.same(JSON.parse(shown.data?.bundle.settings.filters ?? '{}'), { keep: null, ...(JSON.parse(block) as object) });
  t.equal(shown.data?.bundle.items.length, 2, 'the blocked item is not in the bundle');
  const bad = await graphql(yoga, alice, 'mutation ($id: ID!) { updateBundleSettings(bundleId: $id, filters: "{nope") { sort } }', { id: bundleId });
  t.equal(bad.errors?.[0]?.extensions?.code, 'validation_failed');
});
