import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { createBullmqScheduler } from '../../../src/adapters/bullmq/index.js';
import { plannedTime } from '../../../src/adapters/bullmq/planned-time.js';
import { onWakeGrid, wakeGridMs } from '../../../src/adapters/bullmq/wake-grid.js';
import { retryDelayMs } from '../../../src/jobs/retry-policy.js';
import type { Scheduler } from '../../../src/ports/scheduler.js';
import { removeTestQueue, requireRedis, testPrefix } from '../../contract/redis-test-options.js';

// Due times spread evenly made every worker wake, and ask Redis for a job, once per refresh. The
// adapter files them on a grid so the jobs of one step fall due together: placed, moved earlier
// and planned by a run alike, never before the time asked and less than one step after it.
const url = await requireRedis();

/** A scheduler on a queue of its own, a plain connection to read it, and its keys; gone when the test ends. */
function setup(t: Test, queue: string): { scheduler: Scheduler; redis: Redis; delayedKey: string; jobKey: (id: string) => string } {
  const prefix = testPrefix();
  const scheduler = createBullmqScheduler({ connection: url, queue, prefix, retryDelay: retryDelayMs });
  const redis = new Redis(url);
  t.teardown(async () => {
    redis.disconnect();
    await scheduler.close();
    await removeTestQueue(url, prefix, queue);
  });
  return { scheduler, redis, delayedKey: `${prefix}:${queue}:delayed`, jobKey: (id) => `${prefix}:${queue}:${id}` };
}

t.test('due times are filed on the wake grid, at or after the time asked and within one step', async (t) => {
  const { scheduler, redis, delayedKey } = setup(t, 'refresh');
  const asked = new Map<string, number>();
  const ran: { id: string; at: number }[] = [];
  // Each run plans the next 60 s plus 37 ms after it started: off the grid.
  await scheduler.start(async ({ id }) => {
    ran.push({ id, at: Date.now() });
    const next = Date.now() + 60_037;
    asked.set(id, next);
    return new Date(next);
  });
  const base = Date.now() + 600;
  for (let n = 0; n < 12; n++) {
    const at = base + n * 7;
    asked.set(`feed-${n}`, at);
    await scheduler.schedule(`feed-${n}`, new Date(at));
  }
  // Moved earlier, off the grid too.
  const earlier = Date.now() + 60_000 + 43;
  await scheduler.schedule('moved', new Date(Date.now() + 120_000));
  await scheduler.schedule('moved', new Date(earlier));
  const filed = async (id: string): Promise<number> => (await plannedTime(redis, delayedKey, id)) ?? Number.NaN;
  const onGrid = async (id: string, when: number): Promise<void> => {
    const planned = await filed(id);
    t.equal(planned % wakeGridMs, 0, `${id} is filed on the grid (${planned})`);
    t.ok(planned >= when && planned - when < wakeGridMs, `${id} is filed ${planned - when} ms after the time asked`);
  };
  for (let n = 0; n < 12; n++) await onGrid(`feed-${n}`, asked.get(`feed-${n}`) ?? Number.NaN);
  // BullMQ's changeDelay reads its own clock for "now": the move lands on the step that many ms late.
  const moved = await filed('moved');
  t.ok(
    moved >= onWakeGrid(earlier) && moved - onWakeGrid(earlier) < 50,
    `moved earlier, to its step (${moved - onWakeGrid(earlier)} ms after it)`,
  );
  t.ok(
    new Set(await Promise.all(Array.from({ length: 12 }, (_, n) => filed(`feed-${n}`)))).size <= 2,
    '12 due times within 77 ms share one or two steps',
  );
  const deadline = Date.now() + 10_000;
  while (ran.length < 12 && Date.now() < deadline) await sleep(20);
  t.equal(ran.length, 12, 'every job ran');
  for (const run of ran) {
    t.ok(run.at >= base + Number(run.id.slice(5)) * 7, `${run.id} did not run before its time`);
  }
  // The plan each run made: filed on the grid as well, once the last run has moved its job back.
  while (Date.now() < deadline && (await Promise.all(Array.from({ length: 12 }, (_, n) => filed(`feed-${n}`)))).some(Number.isNaN)) {
    await sleep(20);
  }
  for (let n = 0; n < 12; n++) await onGrid(`feed-${n}`, asked.get(`feed-${n}`) ?? Number.NaN);
});

t.test('a job due now is not held back to the grid: it waits for a worker at once', async (t) => {
  // Not started: the job stays where it was filed.
  const { scheduler, redis, delayedKey, jobKey } = setup(t, 'delivery');
  await scheduler.schedule('due-now', new Date(Date.now() - 5));
  t.equal(await redis.exists(jobKey('due-now')), 1, 'the job is there');
  t.equal(await plannedTime(redis, delayedKey, 'due-now'), undefined, 'and not delayed to the next step');
});
