import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const listing = readFileSync(join(repoRoot, 'test/fixtures/pages/selectors-listing.html'), 'utf8');
const source = await startFixtureServer((request, response) => {
  if (request.url === '/board/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(listing);
  response.writeHead(404).end();
});
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = await env.bearer('alice');

const create = (selectors: Record<string, unknown>) =>
  graphql<{
    createFeed: { id: string; items: { nodes: { title: string; url: string }[] }; settings: { selectors: Record<string, unknown> | null } };
  }>(
    yoga,
    alice,
    'mutation ($url: String!, $selectors: PageSelectorsInput) { createFeed(input: { url: $url, selectors: $selectors }) { id items(limit: 100) { nodes { title url } } settings { selectors { item title link date summary image author } } } }',
    { url: `${source.url}/board/`, selectors },
  );

t.test('createFeed takes selectors, and the settings show them', async (t) => {
  const created = await create({ item: '.entry', title: '.headline', link: '@data-href', author: null });
  t.same(codesOf(created), []);
  t.same(created.data?.createFeed.items.nodes.map((item) => item.title).sort(), [
    'Lost buoy found',
    'Pier works this week',
    'Winter ferry timetable',
  ]);
  t.same(created.data?.createFeed.settings.selectors, {
    item: '.entry',
    title: '.headline',
    link: '@data-href',
    date: null,
    summary: null,
    image: null,
    author: null,
  });
  const id = created.data?.createFeed.id ?? '';
  const cleared = await graphql<{ updateFeedSettings: { selectors: unknown } }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { selectors: null }) { selectors { item } } }',
    { id },
  );
  // Clearing finds the source again as a create would: here the advertised /feed.xml is missing and
  // the page alone yields nothing, so clearing is refused and the selectors stay.
  t.same(codesOf(cleared), ['no_items_found']);
  const settings = await graphql<{ feed: { settings: { selectors: { item: string } | null } } }>(
    yoga,
    alice,
    'query ($id: ID!) { feed(id: $id) { settings { selectors { item } } } }',
    { id },
  );
  t.same(settings.data?.feed.settings.selectors, { item: '.entry' });
});

t.test('a broken selector is validation_failed naming its field', async (t) => {
  const broken = await create({ item: '.entry', title: 'h2 >> a' });
  t.same(codesOf(broken), ['validation_failed']);
  t.match(broken.errors?.[0]?.message, /`selectors\.title`/);
  const nothing = await create({ item: '.nothing-here' });
  t.same(codesOf(nothing), ['no_items_found']);
});
