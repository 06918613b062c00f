import t from 'tap';
import { createBullmqScheduler } from '../../src/adapters/bullmq/index.js';
import type { Scheduler } from '../../src/ports/scheduler.js';
import { removeTestQueue, requireRedis, testPrefix } from './redis-test-options.js';
import { schedulerContract } from './scheduler.js';

// Fails (never skips) when FEEDMILL_TEST_REDIS_URL is unset or Redis does not answer.
const url = await requireRedis();

// The cluster scheduler against a real Redis: each test gets a queue under a fresh key prefix,
// obliterated when the test closes its scheduler. `size` is re-read often so tests need not wait.
schedulerContract(t, 'bullmq', (options): Scheduler => {
  const prefix = testPrefix();
  const scheduler = createBullmqScheduler({ ...options, connection: url, queue: 'refresh', prefix, sizeRefreshMs: 100 });
  let closed: Promise<void> | undefined;
  return {
    get size() {
      return scheduler.size;
    },
    start: (handler) => scheduler.start(handler),
    schedule: (id, runAt) => scheduler.schedule(id, runAt),
    ensure: (jobs) => scheduler.ensure(jobs),
    cancel: (id) => scheduler.cancel(id),
    close: () => (closed ??= scheduler.close().then(() => removeTestQueue(url, prefix, 'refresh'))),
  };
});
