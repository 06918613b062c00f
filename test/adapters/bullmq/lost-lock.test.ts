import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import t from 'tap';
import { createBullmqScheduler } from '../../../src/adapters/bullmq/index.js';
import { removeTestQueue, requireRedis, testPrefix } from '../../contract/redis-test-options.js';
import { retryDelayMs } from '../../../src/jobs/retry-policy.js';

const url = await requireRedis();

t.test('a run whose lock went to another token meanwhile leaves the job, and its next run, to the new holder', async (t) => {
  const prefix = testPrefix();
  const queue = 'refresh';
  const scheduler = createBullmqScheduler({
    connection: url,
    queue,
    prefix,
    lockDurationMs: 2_000,
    sizeRefreshMs: 100,
    retryDelay: retryDelayMs,
  });
  const redis = new Redis(url);
  const bull = new Queue(queue, { connection: { url }, prefix });
  t.teardown(async () => {
    await scheduler.close();
    await bull.close();
    redis.disconnect();
    await removeTestQueue(url, prefix, queue);
  });
  const lockKey = `${prefix}:${queue}:feed-1:lock`;
  const plannedByLoser = Date.now() + 3_600_000;
  let finished = false;
  await scheduler.schedule('feed-1', new Date());
  await scheduler.start(async () => {
    // What the stalled checker and another worker do to a run that stalled past its lock.
    await redis.set(lockKey, 'another-worker-token', 'PX', 60_000);
    // Longer than half the lock: the processor checks again before planning the next run.
    await sleep(1_100);
    finished = true;
    return new Date(plannedByLoser);
  });
  while (!finished) await sleep(10);
  await sleep(300);
  t.equal(await redis.get(lockKey), 'another-worker-token', 'the new holder keeps its lock');
  const job = await bull.getJob('feed-1');
  t.equal(await job?.getState(), 'active', 'the job was not moved: its next run is the new holder’s to plan');
  t.not((job?.data as { runAt?: number } | undefined)?.runAt, plannedByLoser, 'nor was the losing run’s plan written into its data');
});
