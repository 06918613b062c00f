import t from 'tap';
import { createRateLimitRedis } from '../../src/adapters/redis-rate-limit/client.js';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { startRedisServer } from '../fixtures/redis-server.js';
import { createTestDeps } from '../fixtures/test-deps.js';

/**
 * Two API processes sharing a Redis of the test's own: the budget is shared while Redis answers;
 * when Redis goes away each process keeps the limit on its own — never unlimited, never a 500.
 */
const redis = await startRedisServer();
const env = createTestDeps();
// Where the first process counts, as it reported each move.
const switches: boolean[] = [];
const client = createRateLimitRedis(redis.url, () => undefined);
const appOf = (onCounterSwitch: (local: boolean) => void) =>
  buildHttpApp(env.deps, { httpsOnly: false, rateLimit: { max: 4, windowMs: 60_000, redis: client, onCounterSwitch } });
const [first, second] = [await appOf((local) => switches.push(local)), await appOf(() => undefined)];
t.teardown(async () => {
  await first.close();
  await second.close();
  client.disconnect();
  await redis.stop();
  await env.close();
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

t.test('while Redis answers, one key has one budget across API processes', async (t) => {
  const bearer = await env.bearer('shared');
  for (const app of [first, second, first, second]) t.equal((await apiClient(app, bearer).get('/v1/feeds')).statusCode, 200);
  assertError(t, await apiClient(first, bearer).get('/v1/feeds'), 429, 'rate_limited');
  assertError(t, await apiClient(second, bearer).get('/v1/feeds'), 429, 'rate_limited');
  t.same(switches, [], 'the counters stayed in Redis');
});

t.test('with Redis gone, each process counts the same limit on its own, and returns to Redis when it is back', async (t) => {
  await redis.kill();
  const bearer = await env.bearer('outage');
  const statuses = [];
  for (let i = 0; i < 6; i += 1) statuses.push((await apiClient(first, bearer).get('/v1/feeds')).statusCode);
  t.same(statuses, [200, 200, 200, 200, 429, 429], 'the limit holds in the process: never unlimited, never a 500');
  t.equal((await apiClient(second, bearer).get('/v1/feeds')).statusCode, 200, 'the other process counts its own budget');
  t.same(switches, [true], 'the move to local counters was reported once');

  await redis.start();
  const later = await env.bearer('after');
  let status = 0;
  // ioredis reconnects on its own, within its retry delay.
  for (let i = 0; i < 50 && switches.length < 2; i += 1) {
    status = (await apiClient(first, later).get('/v1/feeds')).statusCode;
    await sleep(100);
  }
  t.equal(status, 200);
  t.same(switches, [true, false], 'and the move back to Redis once');
});
