import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await env.close();
});
const client = apiClient(app, await env.bearer('alice'));

t.test('a body of neither create-feed shape says which shapes there are, and names unknown fields', async (t) => {
  const both = assertError(t, await client.post('/v1/feeds', { url: 'https://example.com/', keyword: 'rust', region: 'US:en' }), 400, 'validation_failed');
  t.equal(both.message, '`body`: expected either `url`, or `keyword` with `region`');
  const unknown = assertError(t, await client.post('/v1/feeds', { url: 'https://example.com/', colour: 'red' }), 400, 'validation_failed');
  t.match(unknown.message, /`body` has unknown fields `colour`/);
});

t.test('within the shape the body was meant for, the field is named with what was expected and what arrived', async (t) => {
  const region = assertError(t, await client.post('/v1/feeds', { keyword: 'rust', region: 'Brazil' }), 400, 'validation_failed');
  t.equal(region.message, 'Expected `body.region` to be COUNTRY:language (ISO 3166-1 and 639-1, e.g. `US:en`), got `Brazil`');
  const url = assertError(t, await client.post('/v1/feeds', { url: 'ftp://example.com/feed' }), 400, 'invalid_url');
  t.equal(url.message, 'Expected `body.url` to be an absolute http or https URL without credentials, got `ftp://example.com/feed`');
});

t.test('a filter deep in a webhook body is named by its path', async (t) => {
  const filters = { any: [{ field: 'title', op: 'equals', value: 'x' }] };
  const bad = assertError(t, await client.post('/v1/webhooks', { url: 'https://hooks.example.test/in', filters }), 400, 'validation_failed');
  t.equal(bad.message, 'Expected `body.filters.any[0].op` to be one of `contains`, `not_contains`, `matches`, got `equals`');
  const both = assertError(t, await client.post('/v1/webhooks', { url: 'https://hooks.example.test/in', feeds: [], bundles: [] }), 400, 'validation_failed');
  t.equal(both.message, '`body`: expected `feeds` or `bundles`, not both; omit both to receive every feed');
});
