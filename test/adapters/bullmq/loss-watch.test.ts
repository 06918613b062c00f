import { Redis } from 'ioredis';
import t from 'tap';
import { createBullmqScheduler } from '../../../src/adapters/bullmq/index.js';
import { removeTestQueue, requireRedis, testPrefix } from '../../contract/redis-test-options.js';
import { retryDelayMs } from '../../../src/jobs/retry-policy.js';

const url = await requireRedis();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

t.test('a queue lost from Redis is reported once, to one of the workers sharing it', async (t) => {
  const prefix = testPrefix();
  const lost: string[] = [];
  const schedulers = ['first', 'second'].map((name) => ({
    name,
    scheduler: createBullmqScheduler({ connection: url, queue: 'refresh', prefix, lossCheckMs: 50, retryDelay: retryDelayMs }),
  }));
  const redis = new Redis(url);
  t.teardown(async () => {
    for (const { scheduler } of schedulers) await scheduler.close();
    await removeTestQueue(url, prefix, 'refresh');
    await redis.quit();
  });
  for (const { name, scheduler } of schedulers) {
    await scheduler.start(
      async () => null,
      async () => {
        lost.push(name);
      },
    );
  }
  await schedulers[0]?.scheduler.schedule('feed-1', new Date(Date.now() + 60_000));
  await sleep(300);
  t.same(lost, [], 'nothing is reported while Redis keeps the queue');

  // What a restart without persistence leaves: none of the queue's keys.
  const keys = await redis.keys(`${prefix}:*`);
  t.ok(keys.length > 0, 'the queue had keys');
  await redis.del(...keys);
  await sleep(300);
  t.equal(lost.length, 1, `one worker rebuilds (${lost.join(', ')})`);
  await sleep(200);
  t.equal(lost.length, 1, 'and only once per loss');
});

t.test('a rebuild that fails is tried again at the next check', async (t) => {
  const prefix = testPrefix();
  let calls = 0;
  const scheduler = createBullmqScheduler({
    connection: url,
    queue: 'refresh',
    prefix,
    lossCheckMs: 50,
    onRedisError: () => undefined,
    retryDelay: retryDelayMs,
  });
  const redis = new Redis(url);
  t.teardown(async () => {
    await scheduler.close();
    await removeTestQueue(url, prefix, 'refresh');
    await redis.quit();
  });
  await scheduler.start(
    async () => null,
    async () => {
      calls += 1;
      if (calls === 1) throw new Error('the store is down');
    },
  );
  await sleep(100);
  await redis.del(...(await redis.keys(`${prefix}:*`)));
  await sleep(400);
  t.equal(calls, 2, 'the failed rebuild ran again, and stopped once it succeeded');
});
