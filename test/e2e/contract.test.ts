import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { Agent, request } from 'undici';
import { freePort, startFeedmill } from '../fixtures/feedmill-process.js';
import { createKey } from '../fixtures/feedmill-service.js';
import { repoRoot } from '../fixtures/repo-root.js';

// The composed binary on embedded defaults (the address rule on), over HTTPS: what the REST
// contract and the error shape promise must hold for the real process, not only for `app.inject`.
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-contract-'));
const env = {
  FEEDMILL_PORT: String(await freePort()),
  FEEDMILL_METRICS_PORT: '0',
  FEEDMILL_DATA_DIR: dataDir,
  FEEDMILL_PARSER_THREADS: '1',
  FEEDMILL_LOG_LEVEL: 'warn',
};
const service = await startFeedmill(env);
const agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8') } });
t.teardown(async () => {
  await service.stop();
  await agent.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const { authorization } = await createKey(env, 'alice');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request as sent, body bytes and all (the fixture's `call` always sends JSON). */
async function send(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const response = await request(`${service.baseUrl}${path}`, {
    method: method as 'GET',
    headers: { authorization, ...options.headers },
    body: options.body,
    dispatcher: agent,
  });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** The spec's error body with this status and code, and nothing of Fastify's own shape. */
function assertShape(t: Test, answer: Answer, status: number, code: string): { message: string } {
  t.equal(answer.status, status, `HTTP ${status}`);
  const body = JSON.parse(answer.text) as Record<string, unknown> & { errors?: { title?: unknown; code?: unknown }[] };
  t.same(Object.keys(body).sort(), ['errors', 'message', 'statusCode'], 'only message, statusCode and errors');
  t.equal(body.statusCode, status);
  t.type(body.message, 'string');
  t.equal(body.errors?.[0]?.code, code, `code ${code}`);
  t.type(body.errors?.[0]?.title, 'string');
  return { message: String(body.message) };
}

t.test('the OpenAPI document is served by the binary, /graphql mounted, and equals the checked-in one', async (t) => {
  const answer = await send('GET', '/v1/openapi.json');
  t.equal(answer.status, 200);
  const served = JSON.parse(answer.text) as { paths: Record<string, unknown> };
  const checkedIn = JSON.parse(readFileSync(join(repoRoot, 'schema', 'openapi.json'), 'utf8')) as unknown;
  t.same(served, checkedIn, 'run `npm run schema` after changing a route');
  t.notOk('/graphql' in served.paths, 'GraphQL documents itself by introspection');
  t.equal((await send('GET', '/api/v1/openapi.json')).status, 200);
  t.equal(
    (await send('POST', '/graphql', { headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).status,
    200,
    '/graphql answers beside it',
  );
});

t.test('a path segment over the limit is 414 in our shape, without echoing the path', async (t) => {
  const { message } = assertShape(t, await send('GET', `/v1/feeds/${'a'.repeat(3000)}`), 414, 'uri_too_long');
  t.notMatch(message, /aaaaaaaaaa/);
  t.match(message, /at most 2048 characters/);
  // Fastify's own default limit is 100: a long id must still reach the route, whose schema refuses it.
  assertShape(t, await send('GET', `/v1/feeds/${'a'.repeat(2000)}`), 400, 'validation_failed');
});

t.test('headers over 16 KiB are 431 in our shape', async (t) => {
  assertShape(t, await send('GET', '/v1/feeds', { headers: { 'x-padding': 'a'.repeat(20_000) } }), 431, 'headers_too_large');
});

t.test('a method the path does not take is 405 with Allow, before authentication', async (t) => {
  const put = await send('PUT', '/v1/feeds/abcdefghijklmnop');
  assertShape(t, put, 405, 'method_not_allowed');
  t.equal(put.headers.allow, 'DELETE, GET, HEAD, PATCH');
  assertShape(t, await send('TRACE', '/healthz', { headers: { authorization: '' } }), 405, 'method_not_allowed');
  assertShape(t, await send('GET', '/v1/nothing-here'), 404, 'route_not_found');
});

t.test('a request line Node cannot parse, and a bad percent-encoding, are 400 in our shape', async (t) => {
  assertShape(t, await send('FOO', '/v1/feeds'), 400, 'validation_failed');
  assertShape(t, await send('GET', '/v1/feeds/%zz'), 400, 'validation_failed');
});

t.test('body errors: bad JSON, another content type, too large, a body of neither shape', async (t) => {
  const json = { 'content-type': 'application/json' };
  assertShape(t, await send('POST', '/v1/feeds', { headers: json, body: '{bad' }), 400, 'invalid_json');
  assertShape(
    t,
    await send('POST', '/v1/feeds', { headers: { 'content-type': 'text/plain' }, body: 'https://example.com' }),
    415,
    'unsupported_media_type',
  );
  assertShape(
    t,
    await send('POST', '/v1/feeds', { headers: json, body: JSON.stringify({ url: `https://example.com/${'a'.repeat(70_000)}` }) }),
    413,
    'payload_too_large',
  );
  const both = assertShape(
    t,
    await send('POST', '/v1/feeds', {
      headers: json,
      body: JSON.stringify({ url: 'https://example.com/', keyword: 'rust', region: 'US:en' }),
    }),
    400,
    'validation_failed',
  );
  t.match(both.message, /either `url`, or `keyword` with `region`/);
});

t.test('the binary refuses a webhook to the metadata address when it is set', async (t) => {
  const json = { 'content-type': 'application/json' };
  assertShape(
    t,
    await send('POST', '/v1/webhooks', { headers: json, body: JSON.stringify({ url: 'http://169.254.169.254/latest/meta-data/' }) }),
    402,
    'address_not_allowed',
  );
});
