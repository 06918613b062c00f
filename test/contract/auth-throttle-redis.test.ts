import { Redis } from 'ioredis';
import t from 'tap';
import { createRedisAuthThrottle } from '../../src/adapters/redis-rate-limit/auth-throttle.js';
import { createRateLimitRedis } from '../../src/adapters/redis-rate-limit/client.js';
import { authThrottleContract } from './auth-throttle.js';
import { requireRedis, testPrefix } from './redis-test-options.js';

// Fails (never skips) when FEEDMILL_TEST_REDIS_URL is unset or Redis does not answer.
const url = await requireRedis();

/** The API's connection (no offline queue: commands before it is ready fail), once ready. */
const connected = async (): Promise<Redis> => {
  const redis = createRateLimitRedis(url, () => undefined);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
};

const removeUnder = async (prefix: string): Promise<void> => {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
};

authThrottleContract(t, 'redis', async (policy) => {
  const prefix = `${testPrefix()}:auth:`;
  const redis = await connected();
  return {
    throttle: createRedisAuthThrottle({ redis, prefix, ...policy }),
    close: async () => {
      redis.disconnect();
      await removeUnder(prefix);
    },
  };
});

t.test('redis: two API replicas meet one count, and a key expires when its failures are forgotten', async (t) => {
  const prefix = `${testPrefix()}:auth:`;
  const one = await connected();
  const two = await connected();
  t.teardown(async () => {
    one.disconnect();
    two.disconnect();
    await removeUnder(prefix);
  });
  const policy = { freeFailures: 2, baseDelayMs: 1_000, maxDelayMs: 60_000 };
  const first = createRedisAuthThrottle({ redis: one, prefix, ...policy });
  const second = createRedisAuthThrottle({ redis: two, prefix, ...policy });
  const now = Date.parse('2026-11-24T12:00:00Z');
  await first.failed(['key:shared'], now);
  await second.failed(['key:shared'], now);
  t.equal(await first.waitSeconds(['key:shared'], now), 1, 'one failure on each replica: the second already makes the next wait');
  const ttl = await one.pttl(`${prefix}key:shared`);
  t.ok(ttl > 0 && ttl <= 61_000, `the key expires with the memory of its failures (${ttl} ms)`);
});
