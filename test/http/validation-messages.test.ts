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

/** The one phrasing (domain/field-message.ts): what was expected of which field, and what arrived. */
const phrased = /^(Expected `[^`]+` to be .+, got .+|Unknown fields? `[^`]+`.* in .+; expected .+)$/;

t.test('a bad query value names the parameter, the values allowed and the value sent', async (t) => {
  const sort = assertError(t, await client.get('/v1/feeds/fd_AAAAAAAAAAAAAAAA?sort=bogus'), 400, 'validation_failed');
  t.equal(sort.message, 'Expected `sort` to be `last_added` or `date`, got "bogus"');
  const limit = assertError(t, await client.get('/v1/feeds?limit=0'), 400, 'validation_failed');
  t.equal(limit.message, 'Expected `limit` to be an integer from 1 to 100, got "0"');
  const unknown = assertError(t, await client.get('/v1/feeds/fd_AAAAAAAAAAAAAAAA?sort=date&colour=red'), 400, 'validation_failed');
  t.equal(unknown.message, 'Unknown field `colour` in the query string; expected only `sort`');
});

t.test('a body of neither create-feed shape says which shapes there are, and names unknown fields', async (t) => {
  const both = assertError(
    t,
    await client.post('/v1/feeds', { url: 'https://example.com/', keyword: 'rust', region: 'US:en' }),
    400,
    'validation_failed',
  );
  t.equal(
    both.message,
    'Expected the request body to be an object with either `url`, or `keyword` with `region`, got an object with `url`, `keyword`, `region`',
  );
  const unknown = assertError(t, await client.post('/v1/feeds', { url: 'https://example.com/', colour: 'red' }), 400, 'validation_failed');
  t.equal(unknown.message, 'Unknown field `colour` in the request body; expected an object with either `url`, or `keyword` with `region`');
  const none = assertError(t, await client.post('/v1/feeds', {}), 400, 'validation_failed');
  t.equal(none.message, 'Expected the request body to be an object with either `url`, or `keyword` with `region`, got an empty object');
});

t.test('within the shape the body was meant for, the field is named with what was expected and what arrived', async (t) => {
  const region = assertError(t, await client.post('/v1/feeds', { keyword: 'rust', region: 'Brazil' }), 400, 'validation_failed');
  t.equal(region.message, 'Expected `region` to be COUNTRY:language (ISO 3166-1 and 639-1, e.g. `US:en`), got "Brazil"');
  const missing = assertError(t, await client.post('/v1/feeds', { keyword: 'rust' }), 400, 'validation_failed');
  t.equal(missing.message, 'Expected `region` to be COUNTRY:language (ISO 3166-1 and 639-1, e.g. `US:en`), got nothing');
  const url = assertError(t, await client.post('/v1/feeds', { url: 'ftp://example.com/feed' }), 400, 'invalid_url');
  t.equal(url.message, 'Expected `url` to be an absolute http or https URL without credentials, got "ftp://example.com/feed"');
  const typed = assertError(t, await client.post('/v1/feeds', { url: 5 }), 400, 'invalid_url');
  t.equal(
    typed.message,
    'Expected `url` to be an absolute http or https URL without credentials, got 5',
    'a number is shown as one, not as a string',
  );
});

t.test('lengths, ranges, booleans and nullable values are said in words', async (t) => {
  const id = 'fd_AAAAAAAAAAAAAAAA';
  const title = assertError(t, await client.patch(`/v1/feeds/${id}`, { title: 'x'.repeat(501) }), 400, 'validation_failed');
  t.equal(title.message, 'Expected `title` to be a string of 1 to 500 characters, got 501 characters');
  const interval = assertError(t, await client.patch(`/v1/feeds/${id}/settings`, { min_interval: -1 }), 400, 'validation_failed');
  t.equal(interval.message, 'Expected `min_interval` to be an integer from 1 to 604800 or `null`, got -1');
  const paused = assertError(t, await client.patch(`/v1/feeds/${id}/settings`, { paused: 'yes' }), 400, 'validation_failed');
  t.equal(paused.message, 'Expected `paused` to be `true` or `false`, got "yes"');
  const name = assertError(t, await client.post('/v1/bundles', { feeds: [] }), 400, 'validation_failed');
  t.equal(name.message, 'Expected `name` to be a string of 1 to 200 characters, got nothing');
});

t.test('a filter deep in a webhook body is named by its path', async (t) => {
  const filters = { any: [{ field: 'title', op: 'equals', value: 'x' }] };
  const bad = assertError(
    t,
    await client.post('/v1/webhooks', { url: 'https://hooks.example.test/in', filters }),
    400,
    'validation_failed',
  );
  t.equal(bad.message, 'Expected `filters.any[0].op` to be `contains`, `not_contains` or `matches`, got "equals"');
  const noValue = { any: [{ field: 'title', op: 'contains' }] };
  const missing = assertError(
    t,
    await client.post('/v1/webhooks', { url: 'https://hooks.example.test/in', filters: noValue }),
    400,
    'validation_failed',
  );
  t.equal(
    missing.message,
    'Expected `filters.any[0].value` to be a string of 1 to 500 characters, got nothing',
    'the condition the client was filling in is the one reported',
  );
  const both = assertError(
    t,
    await client.post('/v1/webhooks', { url: 'https://hooks.example.test/in', feeds: [], bundles: [] }),
    400,
    'validation_failed',
  );
  t.equal(
    both.message,
    'Expected the request body to be an object with `feeds` or `bundles`, not both (omit both to receive every feed), got an object with `feeds` and `bundles`',
  );
});

t.test('use cases speak the same way as the schemas (a rule only the use case can check)', async (t) => {
  const response = await app.inject({
    method: 'GET',
    url: '/v1/events?since=evt_missing',
    headers: { authorization: client.authorization, accept: 'application/json' },
  });
  const since = assertError(t, response, 404, 'event_not_found');
  t.equal(
    since.message,
    'Expected `since` to be the id of one of this account\'s events from the last 30 days (`evt_…`), got "evt_missing"; leave it out to start from now',
  );
});

type Operation = { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; oneOf?: Schema[]; anyOf?: Schema[] };

/** A value of the wrong kind for a schema: an object where a scalar goes, a number where anything else does. */
const wrongFor = (schema: Schema | undefined): unknown => (schema?.type === 'object' || schema?.type === 'array' ? 7 : { wrong: true });

t.test('every route of the OpenAPI document words every refused field the same way', async (t) => {
  const document = app.swagger() as { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
  // The document names shared schemas (`$ref: #/components/schemas/Feed`); a body's fields are read through them.
  const resolved = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? resolved(document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]) : schema;
  let checked = 0;
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name.toLowerCase().includes('delivery') ? 'dl_AAAAAAAAAAAAAAAA' : 'fd_AAAAAAAAAAAAAAAA',
      );
      const headers: Record<string, string> = { authorization: client.authorization };
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        const response = await app.inject({ method: method.toUpperCase() as 'GET', url: `${url}?${parameter.name}=%7B%7D`, headers });
        if (response.statusCode !== 400) continue;
        checked += 1;
        t.match(response.json<{ message: string }>().message, phrased, `${method.toUpperCase()} ${path}?${parameter.name}`);
      }
      const content = resolved(operation.requestBody?.content?.['application/json']?.schema);
      const branches = content?.oneOf ?? content?.anyOf ?? (content ? [content] : []);
      for (const branch of branches) {
        for (const [name, property] of Object.entries(resolved(branch)?.properties ?? {})) {
          const response = await app.inject({
            method: method.toUpperCase() as 'POST',
            url,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: JSON.stringify({ [name]: wrongFor(resolved(property)) }),
          });
          t.equal(response.statusCode, 400, `${method.toUpperCase()} ${path} { ${name}: wrong }`);
          checked += 1;
          t.match(response.json<{ message: string }>().message, phrased, `${method.toUpperCase()} ${path} { ${name} }`);
        }
      }
    }
  }
  t.ok(checked > 40, `checked ${checked} refused fields`);
});
