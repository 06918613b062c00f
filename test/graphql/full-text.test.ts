import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { fetchArticleHandler } from '../../src/jobs/fetch-article.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { eventually } from '../fixtures/eventually.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

const env = createTestDeps();
await env.deps.articleScheduler.start(fetchArticleHandler(env.deps));
const yoga = createGraphqlServer(env.deps);
const story =
  'ARTICLE-BODY: the harbour council met on Tuesday evening and, after three hours of debate, voted to keep the ferry running through the winter. Residents had gathered signatures for weeks, and the council will review the timetable again in spring when the new boat arrives.';
const source = await startFixtureServer((request, response) => {
  if (request.url === '/feed.xml') {
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(
        `<rss version="2.0"><channel><title>Teasers</title><item><title>One</title><link>${source.url}/story</link><guid>urn:one</guid><description>TEASER</description></item></channel></rss>`,
      );
  }
  response
    .writeHead(200, { 'content-type': 'text/html' })
    .end(`<html><body><nav>BOILER-NAV</nav><article><h1>One</h1><p>${story}</p></article><footer>BOILER-FOOTER</footer></body></html>`);
});
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = await env.bearer('alice');

interface Item {
  descriptionText: string;
  summaryText: string;
  fullTextStatus: string;
  fullTextError: { code: string } | null;
}

const created = await graphql<{ createFeed: { id: string } }>(
  yoga,
  alice,
  'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }',
  {
    url: `${source.url}/feed.xml`,
  },
);
const feedId = created.data?.createFeed.id ?? '';
const update = (input: Record<string, unknown>) =>
  graphql<{ updateFeedSettings: { fullText: boolean; fullTextRules: { content: string | null; remove: string[] } | null } }>(
    yoga,
    alice,
    'mutation ($id: ID!, $input: UpdateFeedSettingsInput!) { updateFeedSettings(feedId: $id, input: $input) { fullText fullTextRules { content remove } } }',
    { id: feedId, input },
  );
const items = async (): Promise<Item[]> =>
  (
    await graphql<{ feed: { items: { nodes: Item[] } } }>(
      yoga,
      alice,
      'query ($id: ID!) { feed(id: $id) { items { nodes { descriptionText summaryText fullTextStatus fullTextError { code } } } } }',
      { id: feedId },
    )
  ).data?.feed.items.nodes ?? [];

t.test('fullText and fullTextRules are settings; items say how their article went', async (t) => {
  t.ok(feedId, JSON.stringify(created.errors));
  t.match((await items())[0], { fullTextStatus: 'SKIPPED', summaryText: 'TEASER', descriptionText: 'TEASER', fullTextError: null });
  const on = await update({ fullText: true, fullTextRules: { content: 'article', remove: ['h1'] } });
  t.same(on.data?.updateFeedSettings, { fullText: true, fullTextRules: { content: 'article', remove: ['h1'] } });
  let seen: Item | undefined;
  await eventually(
    30_000,
    async () => (seen = (await items())[0])?.fullTextStatus === 'OK',
    () => JSON.stringify(seen),
  );
  t.match(seen?.descriptionText, /ARTICLE-BODY/);
  t.notMatch(seen?.descriptionText, /BOILER-/);
  t.equal(seen?.summaryText, 'TEASER', 'the teaser stays as the summary');
  const cleared = await update({ fullTextRules: null });
  t.equal(cleared.data?.updateFeedSettings.fullTextRules, null);
});

t.test('a bad rule is refused with validation_failed', async (t) => {
  const refused = await update({ fullTextRules: { remove: [''] } });
  t.same(codesOf(refused), ['validation_failed']);
  t.match(refused.errors?.[0], { message: /`fullTextRules\.remove\[0\]`/, extensions: { field: 'fullTextRules.remove[0]' } });
});

t.test("the use case's refusals name the fields as GraphQL spells them", async (t) => {
  const refused = await update({ minInterval: 1 });
  t.same(codesOf(refused), ['validation_failed']);
  t.match(refused.errors?.[0], {
    message: /^Expected `minInterval` to be a whole number of seconds/,
    extensions: { field: 'minInterval' },
  });
});
