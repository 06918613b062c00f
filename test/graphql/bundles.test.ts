import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const first = await startRssSource(2);
const second = await startRssSource(1);
t.teardown(async () => {
  await first.close();
  await second.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');

const createFeed = async (url: string, authorization = alice): Promise<string> => {
  const response = await graphql<{ createFeed: { id: string } }>(
    yoga,
    authorization,
    'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }',
    { url },
  );
  const id = response.data?.createFeed.id;
  if (!id) throw new Error(`createFeed failed: ${JSON.stringify(response.errors)}`);
  return id;
};
const feedA = await createFeed(first.url);
const feedB = await createFeed(second.url);
const bobsFeed = await createFeed(first.url, bob);

interface Bundle {
  id: string;
  name: string;
  description: string;
  icon: string;
  rssFeedUrl: string;
  feeds: string[];
  items: { totalCount: number; nodes: { title: string }[] };
}
const bundleFields = 'id name description icon rssFeedUrl feeds items { totalCount nodes { title } }';

t.test('a bundle groups feeds, merges their items, and changes as feeds come and go', async (t) => {
  const created = await graphql<{ createBundle: Bundle }>(
    yoga,
    alice,
    `mutation ($feeds: [ID!]!) { createBundle(input: { name: "Reading", feeds: $feeds }) { ${bundleFields} } }`,
    {
      feeds: [feedA],
    },
  );
  const bundle = created.data?.createBundle;
  t.match(bundle?.id, /^_[A-Za-z0-9_-]{16}$/);
  t.same([bundle?.name, bundle?.description, bundle?.icon, bundle?.feeds], ['Reading', '', '', [feedA]]);
  t.equal(bundle?.rssFeedUrl, `https://feeds.example.test/feeds/${bundle?.id}.xml`);
  t.equal(bundle?.items.totalCount, 2);
  t.equal(bundle?.items.nodes.length, 2);

  const added = await graphql<{ addFeedToBundle: Bundle }>(
    yoga,
    alice,
    `mutation ($b: ID!, $f: ID!) { addFeedToBundle(bundleId: $b, feedId: $f) { ${bundleFields} } }`,
    {
      b: bundle?.id,
      f: feedB,
    },
  );
  t.same(added.data?.addFeedToBundle.feeds, [feedA, feedB]);
  t.equal(added.data?.addFeedToBundle.items.totalCount, 3, 'items of both feeds');

  const renamed = await graphql<{ updateBundle: Bundle }>(
    yoga,
    alice,
    'mutation ($b: ID!) { updateBundle(id: $b, input: { name: "Later", description: "for the weekend" }) { name description } }',
    {
      b: bundle?.id,
    },
  );
  t.same(renamed.data?.updateBundle, { name: 'Later', description: 'for the weekend' });

  const removed = await graphql<{ removeFeedFromBundle: Bundle }>(
    yoga,
    alice,
    'mutation ($b: ID!, $f: ID!) { removeFeedFromBundle(bundleId: $b, feedId: $f) { feeds } }',
    {
      b: bundle?.id,
      f: feedA,
    },
  );
  t.same(removed.data?.removeFeedFromBundle.feeds, [feedB]);

  const read = await graphql<{ bundle: Bundle }>(yoga, alice, `query ($b: ID!) { bundle(id: $b) { ${bundleFields} } }`, { b: bundle?.id });
  t.same(
    [read.data?.bundle.name, read.data?.bundle.feeds, read.data?.bundle.items.nodes.length],
    ['Later', [feedB], 1],
    'reads see every change',
  );

  const list = await graphql<{ bundles: { totalCount: number; hasMore: boolean; nodes: { id: string }[] } }>(
    yoga,
    alice,
    '{ bundles { totalCount hasMore nodes { id } } }',
  );
  t.same(list.data?.bundles, { totalCount: 1, hasMore: false, nodes: [{ id: bundle?.id }] });

  const remove = () =>
    graphql<{ deleteBundle: { id: string; deleted: boolean } }>(yoga, alice, 'mutation ($b: ID!) { deleteBundle(id: $b) { id deleted } }', {
      b: bundle?.id,
    });
  t.same((await remove()).data?.deleteBundle, { id: bundle?.id, deleted: true });
  t.same(codesOf(await remove()), ['bundle_already_deleted'], 'a second delete says it was already deleted');
});

t.test("another account's bundles and feeds cannot be used or seen", async (t) => {
  const mixed = await graphql(yoga, alice, 'mutation ($feeds: [ID!]!) { createBundle(input: { name: "Sneaky", feeds: $feeds }) { id } }', {
    feeds: [feedA, bobsFeed],
  });
  t.same(codesOf(mixed), ['feed_not_found'], "bob's feed in alice's bundle");
  const mine = await graphql<{ createBundle: { id: string } }>(
    yoga,
    alice,
    'mutation ($feeds: [ID!]!) { createBundle(input: { name: "Mine", feeds: $feeds }) { id } }',
    { feeds: [feedA] },
  );
  const id = mine.data?.createBundle.id;
  const peek = await graphql(yoga, bob, 'query ($b: ID!) { bundle(id: $b) { name items { nodes { title } } } }', { b: id });
  t.same(codesOf(peek), ['bundle_not_found']);
  t.equal(peek.data, null);
  const add = await graphql(yoga, alice, 'mutation ($b: ID!, $f: ID!) { addFeedToBundle(bundleId: $b, feedId: $f) { feeds } }', {
    b: id,
    f: bobsFeed,
  });
  t.same(codesOf(add), ['feed_not_found']);
  t.same(codesOf(await graphql(yoga, bob, 'mutation ($b: ID!) { deleteBundle(id: $b) { deleted } }', { b: id })), ['bundle_not_found']);
  const bobs = await graphql<{ bundles: { totalCount: number } }>(yoga, bob, '{ bundles { totalCount } }');
  t.equal(bobs.data?.bundles.totalCount, 0);
});
