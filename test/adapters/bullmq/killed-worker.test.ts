import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createInterface } from 'node:readline';
import t from 'tap';
import { createBullmqScheduler } from '../../../src/adapters/bullmq/index.js';
import { removeTestQueue, requireRedis, testPrefix } from '../../contract/redis-test-options.js';
import { retryDelayMs } from '../../../src/jobs/retry-policy.js';

const url = await requireRedis();
const fixture = fileURLToPath(new URL('../../fixtures/bullmq-worker.js', import.meta.url));

// Short lock and stall check so the test takes seconds; production keeps BullMQ's 30 s.
const lockDurationMs = 1000;
const stalledIntervalMs = 500;

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

t.test('a job whose worker is killed mid-run runs again on another worker, and keeps its schedule', async (t) => {
  const prefix = testPrefix();
  const queue = 'refresh';
  const survivor = createBullmqScheduler({ connection: url, queue, prefix, lockDurationMs, stalledIntervalMs, retryDelay: retryDelayMs });
  t.teardown(async () => {
    await survivor.close();
    await removeTestQueue(url, prefix, queue);
  });
  await survivor.schedule('feed-1', new Date());

  const doomed = spawn(process.execPath, [fixture, url, prefix, queue, String(lockDurationMs), String(stalledIntervalMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(doomed, 'exit');
  t.teardown(() => doomed.kill('SIGKILL'));
  const lines = createInterface({ input: doomed.stdout });
  const [taken] = (await Promise.race([
    once(lines, 'line'),
    sleep(10_000, undefined, { ref: false }).then(() => ['(the worker took no job in 10 s)']),
  ])) as string[];
  t.equal(taken, 'running feed-1', 'the other worker took the job');

  // Scheduling it while the doomed worker holds it adds no second job.
  await survivor.schedule('feed-1', new Date());
  doomed.kill('SIGKILL');
  await exited;
  const killedAt = Date.now();

  const runs: { id: string; at: number }[] = [];
  await survivor.start(async ({ id }) => {
    runs.push({ id, at: Date.now() });
    return runs.length < 3 ? new Date(Date.now() + 50) : null;
  });
  await until(() => runs.length === 3, 15_000, 'the job to run again on the surviving worker');
  const recovered = runs[0]!.at - killedAt;
  t.same(
    runs.map((run) => run.id),
    ['feed-1', 'feed-1', 'feed-1'],
    'the job ran again and its returned dates still plan its runs',
  );
  t.ok(
    recovered < lockDurationMs + 3 * stalledIntervalMs + 2000,
    `ran again ${recovered} ms after the kill (lock ${lockDurationMs} ms, stall check every ${stalledIntervalMs} ms)`,
  );
  await sleep(300);
  t.equal(runs.length, 3, 'and once each: no second copy of the job appeared');
  t.equal(survivor.size, 0, 'nothing left in the queue');
});
