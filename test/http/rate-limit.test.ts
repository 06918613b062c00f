import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { mountGraphql } from '../../src/graphql/mount.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false, rateLimit: { max: 3, windowMs: 60_000 } });
mountGraphql(app, env.deps);
t.teardown(async () => {
  await app.close();
  await env.close();
});

t.test('a key over its budget gets 429 with Retry-After and RateLimit headers; other keys are unaffected', async (t) => {
  const alice = apiClient(app, await env.bearer('alice'));
  const bob = apiClient(app, await env.bearer('bob'));
  const first = await alice.get('/v1/feeds');
  t.equal(first.statusCode, 200);
  t.equal(first.headers['ratelimit-limit'], '3');
  t.equal(first.headers['ratelimit-remaining'], '2');
  t.ok(Number(first.headers['ratelimit-reset']) > 0, 'RateLimit-Reset is the seconds left');
  await alice.get('/v1/feeds');
  await alice.get('/v1/feeds');
  const limited = await alice.get('/v1/feeds');
  const { message } = assertError(t, limited, 429, 'rate_limited');
  t.match(message, /backing off/);
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After says when to come back');
  t.equal((await bob.get('/v1/feeds')).statusCode, 200, 'the budget is per key');
});

t.test('health probes are never limited', async (t) => {
  for (let i = 0; i < 6; i += 1) t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'never 429');
});

t.test('GraphQL requests count against the key, not the address every client shares', async (t) => {
  const query = (authorization: string) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization, 'content-type': 'application/json' },
      payload: { query: '{ feeds { totalCount } }' },
    });
  const carol = await env.bearer('carol');
  const dave = await env.bearer('dave');
  for (let i = 0; i < 3; i += 1) t.equal((await query(carol)).statusCode, 200);
  assertError(t, await query(carol), 429, 'rate_limited');
  t.equal((await query(dave)).statusCode, 200, 'another key from the same address still gets through');
});
