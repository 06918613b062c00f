import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createBullmqScheduler } from '../../../src/adapters/bullmq/index.js';
import { removeTestQueue, requireRedis, testPrefix } from '../../contract/redis-test-options.js';

const url = await requireRedis();

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

t.test(
  'the delay the retry policy gives is the delay BullMQ waits: doubling to a ceiling here, starting over after a success',
  async (t) => {
    const prefix = testPrefix();
    const reported: string[] = [];
    const onError = (id: string, error: unknown): void =>
      void reported.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
    const scheduler = createBullmqScheduler({
      connection: url,
      queue: 'delivery',
      prefix,
      retryDelay: (_error, failures) => Math.min(200 * 2 ** (failures - 1), 500),
      onError,
    });
    t.teardown(async () => {
      await scheduler.close();
      await removeTestQueue(url, prefix, 'delivery');
    });
    const runs: number[] = [];
    // Runs 1-3 fail, run 4 succeeds and asks for run 5 at once, which fails; run 6 is done.
    await scheduler.start(async () => {
      runs.push(Date.now());
      if (runs.length === 4) return new Date();
      if (runs.length === 6) return null;
      throw new Error(`failure ${runs.length}`);
    });
    await scheduler.schedule('dlv_1', new Date());
    await until(() => runs.length === 6, 10_000, 'six runs');
    const gaps = runs.slice(1).map((at, i) => at - runs[i]!);
    // Lower bounds are exact; upper ones leave room for Redis waking a blocked worker up to ~100 ms
    // late (its timeouts are checked `hz` = 10 times a second) on a busy machine.
    t.ok(gaps[0]! >= 200 && gaps[0]! < 400, `first retry after ${gaps[0]} ms (200)`);
    t.ok(gaps[1]! >= 400, `second after ${gaps[1]} ms (400)`);
    t.ok(gaps[2]! >= 500 && gaps[2]! < 800, `third after ${gaps[2]} ms (800, capped at 500)`);
    t.ok(gaps[4]! >= 200 && gaps[4]! < 400, `after a success the first retry is again after ${gaps[4]} ms (200)`);
    t.same(reported, ['dlv_1: failure 1', 'dlv_1: failure 2', 'dlv_1: failure 3', 'dlv_1: failure 5'], 'every failure was reported');
  },
);
