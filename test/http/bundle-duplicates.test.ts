import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { graphql } from '../graphql/graphql-client.js';

// Two outlets carrying the same articles: one through FeedBurner's redirecting links with
// analytics tags, the other through AMP pages; and one wire story under two headlines.
const wire =
  'Flooding forced thousands of residents from their homes on Tuesday as the river rose past its record level, officials said, and more rain is expected through the week.';
const documents: Record<string, string> = {
  '/gazette.xml': `<?xml version="1.0"?><rss version="2.0" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"><channel><title>Gazette</title><link>https://gazette.example/</link><description>d</description>
<item><title>City council approves the new bridge</title><link>https://feeds.feedburner.example/~r/gazette/~3/abc/bridge</link><feedburner:origLink>https://www.news.example/city/bridge-approved/?utm_source=feedburner&amp;utm_medium=feed#comments</feedburner:origLink><pubDate>Tue, 10 Nov 2026 09:00:00 GMT</pubDate><description>The council voted.</description></item>
<item><title>River floods: thousands leave their homes - Gazette</title><link>https://gazette.example/2026/11/river-floods</link><pubDate>Tue, 10 Nov 2026 12:00:00 GMT</pubDate><description>${wire}</description></item>
<item><title>Gazette crossword, Tuesday</title><link>https://gazette.example/crossword</link><pubDate>Tue, 10 Nov 2026 06:00:00 GMT</pubDate><description>Today's puzzle.</description></item>
</channel></rss>`,
  '/courier.xml': `<?xml version="1.0"?><rss version="2.0"><channel><title>Courier</title><link>https://courier.example/</link><description>d</description>
<item><title>City Council approves new bridge</title><link>http://amp.news.example/city/bridge-approved/amp?amp=1&amp;fbclid=xyz</link><pubDate>Tue, 10 Nov 2026 08:30:00 GMT</pubDate><description>The council voted.</description></item>
<item><title>Thousands leave their homes as river floods | The Courier</title><link>https://courier.example/news/floods-2026</link><pubDate>Tue, 10 Nov 2026 13:15:00 GMT</pubDate><description>${wire}</description></item>
<item><title>Courier letters to the editor</title><link>https://courier.example/letters</link><pubDate>Tue, 10 Nov 2026 07:00:00 GMT</pubDate><description>Readers write.</description></item>
</channel></rss>`,
};

const server = await startFixtureServer((request, response) => {
  const body = documents[request.url ?? ''];
  response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/rss+xml' }).end(body ?? '');
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const yoga = createGraphqlServer(env.deps);
t.teardown(async () => {
  await app.close();
  await server.close();
  await env.close();
});

const bearer = await env.bearer('alice');
const alice = apiClient(app, bearer);
const gazette = (await alice.post('/v1/feeds', { url: `${server.url}/gazette.xml` })).json<{ id: string }>().id;
const courier = (await alice.post('/v1/feeds', { url: `${server.url}/courier.xml` })).json<{ id: string }>().id;

interface BundleItem {
  title: string;
  url: string;
  duplicates: { feed_id: string; url: string }[];
}

t.test('the same article through two feeds is one bundle item, the earliest copy kept and the other listed on it', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Local news', feeds: [gazette, courier] })).json<{
    id: string;
    items: BundleItem[];
  }>();
  const got = (await alice.get(`/v1/bundles/${bundle.id}?sort=date`)).json<{ items: BundleItem[] }>();
  t.same(
    got.items.map((item) => [item.title, item.duplicates]),
    [
      // The wire story: the Gazette's copy came out first, so it is kept.
      ['River floods: thousands leave their homes - Gazette', [{ feed_id: courier, url: 'https://courier.example/news/floods-2026' }]],
      // The bridge: the Courier's AMP link came out half an hour before the Gazette's FeedBurner link.
      ['City Council approves new bridge', [{ feed_id: gazette, url: 'https://feeds.feedburner.example/~r/gazette/~3/abc/bridge' }]],
      ['Courier letters to the editor', []],
      ['Gazette crossword, Tuesday', []],
    ],
  );
});

t.test('a tie in publication time goes to the feed listed first in the bundle', async (t) => {
  const same = (await alice.post('/v1/feeds', { url: `${server.url}/gazette.xml` })).json<{ id: string }>().id;
  const first = (await alice.post('/v1/bundles', { name: 'Tie', feeds: [same, gazette] })).json<{ items: BundleItem[] }>();
  t.ok(first.items.every((item) => item.duplicates.length === 1 && item.duplicates[0]?.feed_id === gazette));
  const second = (await alice.post('/v1/bundles', { name: 'Tie again', feeds: [gazette, same] })).json<{ items: BundleItem[] }>();
  t.ok(second.items.every((item) => item.duplicates[0]?.feed_id === same));
});

t.test('hosted bundle outputs carry each article once', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Hosted', feeds: [gazette, courier] })).json<{ id: string }>();
  const rss = await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.xml` });
  t.equal(rss.body.match(/<item>/g)?.length, 4, 'six items, two of them copies');
  const json = (await app.inject({ method: 'GET', url: `/feeds/${bundle.id}.json` })).json<{ items: unknown[] }>();
  t.equal(json.items.length, 4);
});

t.test('GraphQL lists the copies on the bundle item, and none on a feed item', async (t) => {
  const bundle = (await alice.post('/v1/bundles', { name: 'Graph', feeds: [gazette, courier] })).json<{ id: string }>();
  const response = await graphql<{
    bundle: { items: { nodes: { title: string; duplicates: { feedId: string; url: string }[] }[] } };
    feed: { items: { nodes: { duplicates: null }[] } };
  }>(
    yoga,
    bearer,
    'query ($id: ID!, $feed: ID!) { bundle(id: $id, sort: DATE) { items { nodes { title duplicates { feedId url } } } } feed(id: $feed) { items { nodes { duplicates { url } } } } }',
    { id: bundle.id, feed: gazette },
  );
  t.same(response.errors, undefined);
  t.same(response.data?.bundle.items.nodes[0], {
    title: 'River floods: thousands leave their homes - Gazette',
    duplicates: [{ feedId: courier, url: 'https://courier.example/news/floods-2026' }],
  });
  t.ok(response.data?.feed.items.nodes.every((item) => item.duplicates === null));
});

t.test('the OpenAPI document describes the duplicates of a bundle item', async (t) => {
  const document = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  }>();
  t.ok(document.components.schemas.BundleItem?.properties?.duplicates, 'BundleItem.duplicates');
  t.ok(document.components.schemas.DuplicateCopy?.properties?.feed_id, 'DuplicateCopy.feed_id');
});
