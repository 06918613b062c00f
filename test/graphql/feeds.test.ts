import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startRssSource(3);
t.teardown(async () => {
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');

interface Item {
  url: string;
  title: string;
  descriptionHtml: string;
  datePublished: string;
  authors: { name: string }[];
  thumbnail: string | null;
}
interface Feed {
  id: string;
  title: string;
  sourceUrl: string;
  rssFeedUrl: string;
  description: string;
  icon: string;
  items: { nodes: Item[] };
  settings: { customAuthor: string | null; sort: string };
}

const feedFields =
  'id title sourceUrl rssFeedUrl description icon items { nodes { url title descriptionHtml datePublished thumbnail authors { name } } }';
const create = (url: string, authorization = alice) =>
  graphql<{ createFeed: Feed }>(yoga, authorization, `mutation ($url: String!) { createFeed(input: { url: $url }) { ${feedFields} } }`, {
    url,
  });

const created = await create(source.url);
const feed = created.data?.createFeed;
if (!feed) throw new Error(`createFeed failed: ${JSON.stringify(created.errors)}`);

t.test('creating a feed returns it with its items, the same as REST', async (t) => {
  t.equal(created.status, 200);
  t.match(feed.id, /^[A-Za-z0-9_-]{16}$/);
  t.equal(feed.title, 'Fixture & Co');
  t.equal(feed.sourceUrl, source.url);
  t.equal(feed.rssFeedUrl, `https://feeds.example.test/feeds/${feed.id}.xml`);
  t.same(
    feed.items.nodes.map((item) => item.title),
    ['Post 3', 'Post 2', 'Post 1'],
    'newest first',
  );
  t.equal(feed.items.nodes[0]?.datePublished, '2026-01-03T12:00:00.000Z');
  t.match(feed.items.nodes[0]?.descriptionHtml, /<b>3<\/b>/);
  t.same(feed.items.nodes[0]?.authors, []);
  t.equal(feed.items.nodes[0]?.thumbnail, null);
});

t.test('a feed reads back with its items and settings; `sort` changes the order', async (t) => {
  source.retitle(1, 'Post 1');
  const response = await graphql<{ feed: Feed }>(
    yoga,
    alice,
    `query ($id: ID!) { feed(id: $id) { ${feedFields} settings { customAuthor sort } } }`,
    { id: feed.id },
  );
  t.same(response.errors, undefined);
  t.equal(response.data?.feed.items.nodes.length, 3);
  t.same(response.data?.feed.settings, { customAuthor: null, sort: 'LAST_ADDED' });
  const byDate = await graphql<{ feed: { items: { nodes: Item[] } } }>(
    yoga,
    alice,
    'query ($id: ID!) { feed(id: $id) { items(sort: DATE) { nodes { title } } } }',
    { id: feed.id },
  );
  t.same(
    byDate.data?.feed.items.nodes.map((item) => item.title),
    ['Post 3', 'Post 2', 'Post 1'],
  );
});

t.test('listing feeds gives a page, newest first, with limit and offset checked', async (t) => {
  const second = (await create(source.url)).data?.createFeed;
  type Page = { feeds: { totalCount: number; hasMore: boolean; nodes: { id: string }[] } };
  const list = await graphql<Page>(yoga, alice, '{ feeds { totalCount hasMore nodes { id } } }');
  t.same(list.data?.feeds, { totalCount: 2, hasMore: false, nodes: [{ id: second?.id }, { id: feed.id }] });
  const first = await graphql<Page>(yoga, alice, '{ feeds(limit: 1) { totalCount hasMore nodes { id } } }');
  t.same(first.data?.feeds, { totalCount: 2, hasMore: true, nodes: [{ id: second?.id }] }, 'more follow the first page');
  const page = await graphql<Page>(yoga, alice, '{ feeds(limit: 1, offset: 1) { hasMore nodes { id } } }');
  t.same(page.data?.feeds, { hasMore: false, nodes: [{ id: feed.id }] });
  const bad = await graphql(yoga, alice, '{ feeds(limit: 0) { totalCount } }');
  t.same(codesOf(bad), ['validation_failed']);
  t.equal(bad.errors?.[0]?.message, 'Expected `limit` to be an integer from 1 to 100, got 0');
  t.equal(bad.errors?.[0]?.extensions?.statusCode, 400);
});

t.test("a feed's items come in the same pages, with limit and offset checked", async (t) => {
  type Items = { feed: { items: { totalCount: number; hasMore: boolean; nodes: { title: string }[] } } };
  const page = (args: string) =>
    graphql<Items>(yoga, alice, `query ($id: ID!) { feed(id: $id) { items${args} { totalCount hasMore nodes { title } } } }`, {
      id: feed.id,
    });
  t.same((await page('(limit: 1)')).data?.feed.items, { totalCount: 3, hasMore: true, nodes: [{ title: 'Post 3' }] });
  t.same((await page('(limit: 2, offset: 1)')).data?.feed.items, {
    totalCount: 3,
    hasMore: false,
    nodes: [{ title: 'Post 2' }, { title: 'Post 1' }],
  });
  const bad = await page('(offset: -1)');
  t.same(codesOf(bad), ['validation_failed']);
  t.equal(bad.errors?.[0]?.message, 'Expected `offset` to be an integer of at least 0, got -1');
});

t.test('updating a feed changes what later reads return', async (t) => {
  const updated = await graphql<{ updateFeed: { title: string; description: string; icon: string } }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeed(id: $id, input: { title: "Renamed", icon: "https://example.test/i.png" }) { title description icon } }',
    { id: feed.id },
  );
  t.same(updated.data?.updateFeed, { title: 'Renamed', description: 'A feed that grows', icon: 'https://example.test/i.png' });
  const read = await graphql<{ feed: { title: string } }>(yoga, alice, 'query ($id: ID!) { feed(id: $id) { title } }', { id: feed.id });
  t.equal(read.data?.feed.title, 'Renamed');
});

t.test('a custom author replaces every item author until it is reset with null', async (t) => {
  const set = await graphql<{ updateFeedSettings: Feed['settings'] }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { customAuthor: "Newsroom", sort: DATE }) { customAuthor sort } }',
    { id: feed.id },
  );
  t.same(set.data?.updateFeedSettings, { customAuthor: 'Newsroom', sort: 'DATE' });
  const items = async () =>
    (
      await graphql<{ feed: { items: { nodes: Item[] } } }>(
        yoga,
        alice,
        'query ($id: ID!) { feed(id: $id) { items { nodes { authors { name } } } } }',
        {
          id: feed.id,
        },
      )
    ).data?.feed.items.nodes;
  t.same(
    (await items())?.map((item) => item.authors),
    [[{ name: 'Newsroom' }], [{ name: 'Newsroom' }], [{ name: 'Newsroom' }]],
  );
  const sortOnly = await graphql<{ updateFeedSettings: Feed['settings'] }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { sort: LAST_ADDED }) { customAuthor sort } }',
    { id: feed.id },
  );
  t.same(sortOnly.data?.updateFeedSettings, { customAuthor: 'Newsroom', sort: 'LAST_ADDED' }, 'a field left out keeps its value');
  const reset = await graphql<{ updateFeedSettings: Feed['settings'] }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { customAuthor: null }) { customAuthor } }',
    { id: feed.id },
  );
  t.same(reset.data?.updateFeedSettings, { customAuthor: null });
  t.same(
    (await items())?.map((item) => item.authors),
    [[], [], []],
  );
});

t.test("another account's feed is not found and never shows its data", async (t) => {
  const read = await graphql(yoga, bob, `query ($id: ID!) { feed(id: $id) { ${feedFields} } }`, { id: feed.id });
  t.same(codesOf(read), ['feed_not_found']);
  t.equal(read.errors?.[0]?.extensions?.statusCode, 404);
  t.equal(read.data, null, 'no field of the feed comes back');
  t.notMatch(JSON.stringify(read), /Renamed|Fixture|Post \d/);
  const write = await graphql(yoga, bob, 'mutation ($id: ID!) { updateFeed(id: $id, input: { title: "Mine now" }) { title } }', {
    id: feed.id,
  });
  t.same(codesOf(write), ['feed_not_found']);
  const settings = await graphql(
    yoga,
    bob,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { customAuthor: "x" }) { customAuthor } }',
    { id: feed.id },
  );
  t.same(codesOf(settings), ['feed_not_found']);
  const removal = await graphql(yoga, bob, 'mutation ($id: ID!) { deleteFeed(id: $id) { deleted } }', { id: feed.id });
  t.same(codesOf(removal), ['feed_not_found']);
  const list = await graphql<{ feeds: { totalCount: number } }>(yoga, bob, '{ feeds { totalCount } }');
  t.equal(list.data?.feeds.totalCount, 0);
  const still = await graphql<{ feed: { title: string } }>(yoga, alice, 'query ($id: ID!) { feed(id: $id) { title } }', { id: feed.id });
  t.equal(still.data?.feed.title, 'Renamed', "alice's feed is untouched");
});

t.test('a source that cannot be reached, or is not a URL, creates nothing and says why', async (t) => {
  const unreachable = await create('http://127.0.0.1:1/feed.xml');
  t.same(codesOf(unreachable), ['source_unreachable']);
  t.equal(unreachable.errors?.[0]?.extensions?.statusCode, 402, 'the REST status rides along');
  t.equal(unreachable.status, 200, 'a failed field is not a failed request');
  t.same(codesOf(await create('not a url')), ['invalid_url']);
  const list = await graphql<{ feeds: { totalCount: number } }>(yoga, alice, '{ feeds { totalCount } }');
  t.equal(list.data?.feeds.totalCount, 2);
});

t.test('deleting a feed, then deleting it again, says it was already deleted', async (t) => {
  const target = (await create(source.url)).data?.createFeed;
  const remove = () =>
    graphql<{ deleteFeed: { id: string; deleted: boolean } }>(yoga, alice, 'mutation ($id: ID!) { deleteFeed(id: $id) { id deleted } }', {
      id: target?.id,
    });
  t.same((await remove()).data?.deleteFeed, { id: target?.id, deleted: true });
  const again = await remove();
  t.same(codesOf(again), ['feed_already_deleted']);
  t.match(again.errors?.[0]?.message, /already been deleted/);
});
