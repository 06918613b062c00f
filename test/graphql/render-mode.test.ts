import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

// `render` through GraphQL: the RenderMode enum on create and in settings, mapped to the domain's values.
const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startFixtureServer((request, response) => {
  if (request.url === '/feed.xml') {
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end('<rss version="2.0"><channel><title>Feed</title><item><title>One</title><guid>urn:one</guid></item></channel></rss>');
  }
  response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><ul id="later"></ul><script></script></body></html>');
});
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = await env.bearer('alice');

t.test('createFeed takes render, and settings read and change it as RenderMode', async (t) => {
  const created = await graphql<{ createFeed: { id: string; settings: { render: string } } }>(
    yoga,
    alice,
    'mutation ($url: String!) { createFeed(input: { url: $url, render: NEVER }) { id settings { render } } }',
    { url: `${source.url}/feed.xml` },
  );
  t.equal(created.data?.createFeed.settings.render, 'NEVER');
  const updated = await graphql<{ updateFeedSettings: { render: string } }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { render: ALWAYS }) { render } }',
    { id: created.data?.createFeed.id ?? '' },
  );
  t.equal(updated.data?.updateFeedSettings.render, 'ALWAYS');
});

t.test('ALWAYS without a browser answers render_unavailable', async (t) => {
  const refused = await graphql(yoga, alice, 'mutation ($url: String!) { createFeed(input: { url: $url, render: ALWAYS }) { id } }', {
    url: `${source.url}/page`,
  });
  t.same(codesOf(refused), ['render_unavailable']);
});
