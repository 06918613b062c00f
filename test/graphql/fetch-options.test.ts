import t from 'tap';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql } from './graphql-client.js';

// GraphQL's spelling of fetch options: headers as a list of name and value, camelCase fields, and
// refusals naming the field as GraphQL spells it.
const env = createTestDeps();
const yoga = createGraphqlServer(env.deps);
const source = await startFixtureServer((request, response) => {
  if (request.headers['x-api-key'] !== 'k3y' || request.headers['user-agent'] !== 'Reader/1') return void response.writeHead(403).end();
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end('<rss version="2.0"><channel><title>Keyed</title><item><title>One</title><guid>urn:one</guid></item></channel></rss>');
});
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = await env.bearer('alice');

const create = (fetch: unknown) =>
  graphql<{
    createFeed: { id: string; settings: { fetch: { userAgent: string | null; headerNames: string[]; basicAuthSet: boolean } | null } };
  }>(
    yoga,
    alice,
    'mutation ($url: String!, $fetch: FetchOptionsInput) { createFeed(input: { url: $url, fetch: $fetch }) { id settings { fetch { userAgent headerNames basicAuthSet } } } }',
    { url: `${source.url}/feed.xml`, fetch },
  );

t.test('createFeed sends the headers as a list and reads back only their names', async (t) => {
  const refused = await create(null);
  t.same(codesOf(refused), ['upstream_status']);
  const created = await create({ userAgent: 'Reader/1', headers: [{ name: 'X-Api-Key', value: 'k3y' }] });
  t.same(created.data?.createFeed.settings.fetch, { userAgent: 'Reader/1', headerNames: ['X-Api-Key'], basicAuthSet: false });
  t.notOk(JSON.stringify(created).includes('k3y'));
});

t.test('a refusal names the field in camelCase', async (t) => {
  const both = await create({ headers: [{ name: 'Authorization', value: 'Bearer x' }], basicAuth: { username: 'u', password: 'p' } });
  t.same(codesOf(both), ['validation_failed']);
  t.equal(
    both.errors?.[0]?.message,
    'Expected `fetch.headers.Authorization` to be absent when `basicAuth` is given (both set `Authorization`), got both',
  );
  const twice = await create({
    headers: [
      { name: 'X-A', value: '1' },
      { name: 'x-a', value: '2' },
    ],
  });
  t.equal(
    twice.errors?.[0]?.message,
    'Expected `fetch.headers.x-a` to be given once: header names are the same in any letter case, got a second one',
  );
  const colon = await create({ basicAuth: { username: 'a:b', password: 'p' } });
  t.match(colon.errors?.[0], {
    message: /^Expected `fetch\.basicAuth\.username` to be /,
    extensions: { code: 'validation_failed', field: 'fetch.basicAuth.username' },
  });
});
