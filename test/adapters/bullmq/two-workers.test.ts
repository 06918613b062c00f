import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createBullmqScheduler } from '../../../src/adapters/bullmq/index.js';
import type { Scheduler } from '../../../src/ports/scheduler.js';
import { removeTestQueue, requireRedis, testPrefix } from '../../contract/redis-test-options.js';
import { retryDelayMs } from '../../../src/jobs/retry-policy.js';

const url = await requireRedis();

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

t.test('two workers on one queue never run the same feed at once, and share the feeds', async (t) => {
  const prefix = testPrefix();
  const queue = 'refresh';
  // Two schedulers in one process stand for two worker processes: each has its own connections.
  const workers: Scheduler[] = [0, 1].map(() =>
    createBullmqScheduler({ connection: url, queue, prefix, concurrency: 3, sizeRefreshMs: 100, retryDelay: retryDelayMs }),
  );
  t.teardown(async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await removeTestQueue(url, prefix, queue);
  });
  const feeds = Array.from({ length: 12 }, (_, i) => `feed-${i}`);
  // Both processes schedule every feed: still one job per feed.
  await Promise.all(feeds.flatMap((feed) => workers.map((worker) => worker.schedule(feed, new Date(Date.now() + 20)))));
  await until(() => workers.every((worker) => worker.size === feeds.length), 5000, 'both to count one job per feed');

  const running = new Set<string>();
  const overlaps: string[] = [];
  const runs = new Map<string, number>();
  const byWorker = [0, 0];
  workers.forEach((worker, index) => {
    void worker.start(async ({ id }) => {
      if (running.has(id)) overlaps.push(id);
      running.add(id);
      byWorker[index]! += 1;
      // During a feed's first run the other process asks for it again: that run must wait.
      if (!runs.has(id)) await workers[1 - index]!.schedule(id, new Date());
      await sleep(5 + Math.random() * 20);
      running.delete(id);
      const count = (runs.get(id) ?? 0) + 1;
      runs.set(id, count);
      return count < 4 ? new Date(Date.now() + Math.random() * 20) : null;
    });
  });
  await until(() => feeds.every((feed) => (runs.get(feed) ?? 0) >= 4), 20_000, 'every feed to run four times');
  await until(() => workers.every((worker) => worker.size === 0), 5000, 'the queue to empty');
  t.same(overlaps, [], 'no feed ran on both workers at once');
  t.ok(byWorker[0]! > 0 && byWorker[1]! > 0, `both workers ran feeds (${byWorker.join(' and ')})`);
});
