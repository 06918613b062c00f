import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

/**
 * The Redis server scripts/test.sh started or found, after checking it answers. No server is a
 * failure, never a skip: the cluster adapters are tested against a real one.
 */
export async function requireRedis(): Promise<string> {
  const url = process.env['FEEDMILL_TEST_REDIS_URL'];
  if (!url)
    throw new Error(
      'Expected FEEDMILL_TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to name a Redis server; run the tests with `npm test`, which starts one',
    );
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // ioredis reports the cause (ECONNREFUSED, …) as an event, and rejects with "Connection is closed".
  let cause: unknown;
  redis.on('error', (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    const reason = cause ?? error;
    throw new Error(
      `Expected Redis to answer PING at FEEDMILL_TEST_REDIS_URL=${url}, got: ${reason instanceof Error ? reason.message : String(reason)}; start it with \`bash scripts/services/redis.sh start\``,
      { cause: reason },
    );
  } finally {
    redis.disconnect();
  }
  return url;
}

/** A key prefix no other test (or run) uses, so tests share a server and never each other's keys. */
export const testPrefix = (): string => `feedmill-test-${randomBytes(5).toString('hex')}`;

/** Obliterates a test queue, then deletes whatever else is left under the prefix (schedule locks). */
export async function removeTestQueue(url: string, prefix: string, queue: string): Promise<void> {
  const bull = new Queue(queue, { connection: { url }, prefix });
  try {
    await bull.obliterate({ force: true });
  } finally {
    await bull.close();
  }
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}
