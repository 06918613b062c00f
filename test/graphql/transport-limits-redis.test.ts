import t from 'tap';
import { Agent, request } from 'undici';
import { createRateLimitRedis } from '../../src/adapters/redis-rate-limit/client.js';
import { requireRedis } from '../contract/redis-test-options.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import type { GraphqlError } from './graphql-client.js';
import { collect, startGraphqlHttps, wsClient, type GraphqlHttps } from './transport-fixtures.js';

// Two API replicas of one cluster: one store, one Redis for the rate-limit counters.
const budget = 5;
const redis = createRateLimitRedis(await requireRedis(), () => undefined);
const env = createTestDeps();
const rateLimit = { max: budget, windowMs: 60_000, redis };
const [one, two] = [await startGraphqlHttps(env.deps, { rateLimit }), await startGraphqlHttps(env.deps, { rateLimit })] as [
  GraphqlHttps,
  GraphqlHttps,
];
t.teardown(async () => {
  await one.close();
  await two.close();
  redis.disconnect();
  await env.close();
});

async function post(server: GraphqlHttps, authorization: string): Promise<number> {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  try {
    const response = await request(server.httpUrl, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ feeds { totalCount } }' }),
      dispatcher,
    });
    await response.body.dump();
    return response.statusCode;
  } finally {
    await dispatcher.close();
  }
}

t.test('WebSocket operations on one replica and HTTP requests on another spend one shared budget', async (t) => {
  const alice = await env.bearer('cluster-alice');
  const client = wsClient(one, { Authorization: alice });
  t.teardown(() => client.dispose());
  const operation = () =>
    collect<{ errors?: GraphqlError[] }>((sink) =>
      client.subscribe(
        { query: '{ feeds { totalCount } }' },
        {
          next: (value) => sink.next(value as { errors?: GraphqlError[] }),
          complete: () => undefined,
          error: (error) => sink.next({ errors: error as GraphqlError[] }),
        },
      ),
    ).next(1);
  for (let n = 0; n < 3; n += 1) t.same((await operation())[0]?.errors, undefined, `WebSocket operation ${n + 1} on replica one runs`);
  for (let n = 0; n < 2; n += 1) t.equal(await post(two, alice), 200, `HTTP request ${n + 1} on replica two runs`);
  t.equal(await post(two, alice), 429, 'the budget is spent on replica two');
  const [refused] = await operation();
  t.equal(refused?.errors?.[0]?.extensions?.code, 'rate_limited', 'and on replica one');
});
