import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { createLocalScheduler, type LocalSchedulerOptions } from '../../../src/adapters/local-scheduler/local-scheduler.js';
import { retryDelayMs } from '../../../src/jobs/retry-policy.js';
import type { Scheduler } from '../../../src/ports/scheduler.js';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const inMs = (ms: number): Date => new Date(Date.now() + ms);

/** A scheduler closed when the test ends, and a log of every run: which feed, when it started. */
function setup(t: Test, options: Partial<LocalSchedulerOptions> = {}): { scheduler: Scheduler; runs: { feedId: string; at: number }[] } {
  const scheduler = createLocalScheduler({ retryDelay: retryDelayMs, ...options });
  t.teardown(() => scheduler.close());
  return { scheduler, runs: [] };
}

/** Resolves once `check` holds, polling every few ms; fails after `ms`. */
async function until(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the scheduler');
    await sleep(2);
  }
}

t.test('a feed is refreshed at the time it was scheduled for, not before', async (t) => {
  const { scheduler, runs } = setup(t);
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    return null;
  });
  const start = Date.now();
  await scheduler.schedule('a', inMs(60));
  await scheduler.schedule('b', inMs(20));
  await until(() => runs.length === 2);
  t.same(
    runs.map((r) => r.feedId),
    ['b', 'a'],
    'in time order',
  );
  t.ok(runs[0]!.at - start >= 19, `b ran after ${runs[0]!.at - start}ms`);
  t.ok(runs[1]!.at - start >= 59, `a ran after ${runs[1]!.at - start}ms`);
});

t.test('a time in the past runs at once', async (t) => {
  const { scheduler, runs } = setup(t);
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    return null;
  });
  await scheduler.schedule('a', new Date(0));
  await until(() => runs.length === 1);
  t.equal(runs[0]?.feedId, 'a');
});

t.test('jobs scheduled before start run once the handler is there', async (t) => {
  const { scheduler, runs } = setup(t);
  await scheduler.schedule('a', inMs(5));
  await sleep(30);
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    return null;
  });
  await until(() => runs.length === 1);
  t.equal(runs[0]?.feedId, 'a');
});

t.test('the date the handler returns schedules the next run, and null stops', async (t) => {
  const { scheduler, runs } = setup(t);
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    return runs.length < 3 ? inMs(30) : null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 3);
  t.ok(runs[1]!.at - runs[0]!.at >= 29, `second run ${runs[1]!.at - runs[0]!.at}ms after the first`);
  t.ok(runs[2]!.at - runs[1]!.at >= 29, `third run ${runs[2]!.at - runs[1]!.at}ms after the second`);
  await sleep(100);
  t.equal(runs.length, 3, 'no run after the handler returned null');
});

t.test('scheduling a feed again moves it earlier, never later', async (t) => {
  const { scheduler, runs } = setup(t);
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    return null;
  });
  const start = Date.now();
  await scheduler.schedule('a', inMs(200));
  await scheduler.schedule('a', inMs(20));
  await scheduler.schedule('a', inMs(500));
  await until(() => runs.length === 1);
  t.ok(runs[0]!.at - start < 150, `ran after ${runs[0]!.at - start}ms, at the earliest time asked`);
  await sleep(250);
  t.equal(runs.length, 1, 'scheduled three times, ran once');
});

t.test('a feed never runs twice at once, however often it is scheduled while running', async (t) => {
  const { scheduler } = setup(t);
  let active = 0;
  let most = 0;
  let calls = 0;
  const release = deferred<void>();
  await scheduler.start(async () => {
    calls += 1;
    active += 1;
    most = Math.max(most, active);
    if (calls === 1) await release.promise;
    active -= 1;
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => calls === 1);
  for (let i = 0; i < 5; i++) await scheduler.schedule('a', inMs(0));
  await sleep(40);
  t.equal(calls, 1, 'no second run while the first is still going');
  release.resolve();
  await until(() => calls === 2);
  await sleep(40);
  t.equal(calls, 2, 'the schedules made during the run become one run after it');
  t.equal(most, 1);
});

t.test('a time asked for during a run wins over a later time the handler returns', async (t) => {
  const { scheduler, runs } = setup(t);
  const release = deferred<void>();
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (runs.length === 1) await release.promise;
    return runs.length === 1 ? inMs(10_000) : null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 1);
  await scheduler.schedule('a', inMs(20));
  release.resolve();
  await until(() => runs.length === 2);
  t.ok(runs[1]!.at - runs[0]!.at < 1000, 'ran again soon, not in 10 s');
});

t.test('a cancelled feed is not refreshed', async (t) => {
  const { scheduler, runs } = setup(t);
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    return null;
  });
  await scheduler.schedule('a', inMs(20));
  await scheduler.schedule('b', inMs(20));
  await scheduler.cancel('a');
  await until(() => runs.length === 1);
  await sleep(60);
  t.same(
    runs.map((r) => r.feedId),
    ['b'],
  );
  await scheduler.cancel('never-scheduled');
});

t.test('a feed cancelled during its run is not scheduled again', async (t) => {
  const { scheduler, runs } = setup(t);
  const release = deferred<void>();
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    await release.promise;
    return inMs(10);
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 1);
  await scheduler.cancel('a');
  release.resolve();
  await sleep(80);
  t.equal(runs.length, 1, 'the date the handler returned was ignored');
});

t.test('a feed cancelled and scheduled again during its run runs again', async (t) => {
  const { scheduler, runs } = setup(t);
  const release = deferred<void>();
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (runs.length === 1) await release.promise;
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 1);
  await scheduler.cancel('a');
  await scheduler.schedule('a', inMs(10));
  release.resolve();
  await until(() => runs.length === 2);
  t.equal(runs.length, 2);
});

t.test('no more than `concurrency` refreshes run at once', async (t) => {
  const { scheduler } = setup(t, { concurrency: 2 });
  let active = 0;
  let most = 0;
  const done: string[] = [];
  await scheduler.start(async ({ id: feedId }) => {
    active += 1;
    most = Math.max(most, active);
    await sleep(25);
    active -= 1;
    done.push(feedId);
    return null;
  });
  for (const id of ['a', 'b', 'c', 'd', 'e']) await scheduler.schedule(id, inMs(0));
  await until(() => done.length === 5);
  t.equal(most, 2);
  t.same([...done].sort(), ['a', 'b', 'c', 'd', 'e'], 'every feed ran, none twice');
});

t.test('a feed waiting for a free slot runs when a cancelled run ends', async (t) => {
  const { scheduler, runs } = setup(t, { concurrency: 1 });
  const release = deferred<void>();
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (feedId === 'a') await release.promise;
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 1);
  await scheduler.schedule('b', inMs(0));
  await sleep(20);
  t.equal(runs.length, 1, 'b waits: the only slot is taken');
  await scheduler.cancel('a');
  release.resolve();
  await until(() => runs.length === 2, 500);
  t.equal(runs[1]?.feedId, 'b');
});

t.test('a feed cancelled while waiting for a slot and scheduled later runs at the later time', async (t) => {
  const { scheduler, runs } = setup(t, { concurrency: 1 });
  const release = deferred<void>();
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (feedId === 'a') await release.promise;
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 1);
  await scheduler.schedule('b', inMs(0));
  await sleep(20);
  await scheduler.cancel('b');
  const later = Date.now() + 150;
  await scheduler.schedule('b', new Date(later));
  release.resolve();
  await until(() => runs.length === 2);
  t.equal(runs[1]?.feedId, 'b');
  t.ok(runs[1]!.at >= later - 1, `b ran ${later - runs[1]!.at}ms before the time it was moved to`);
  await sleep(200);
  t.equal(runs.length, 2, 'and only once');
});

t.test('a feed waiting for a slot and scheduled again meanwhile runs once', async (t) => {
  const { scheduler, runs } = setup(t, { concurrency: 1 });
  const release = deferred<void>();
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (feedId === 'a') await release.promise;
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 1);
  await scheduler.schedule('b', inMs(0));
  await sleep(20);
  await scheduler.schedule('b', inMs(0));
  await scheduler.schedule('b', inMs(50));
  await sleep(20);
  release.resolve();
  await until(() => runs.length === 2);
  await sleep(100);
  t.same(
    runs.map((r) => r.feedId),
    ['a', 'b'],
  );
});

t.test('a handler that throws is reported and the feed is tried again later', async (t) => {
  const errors: [string, unknown][] = [];
  const { scheduler, runs } = setup(t, { retryDelay: () => 40, onError: (feedId, error) => errors.push([feedId, error]) });
  const boom = new Error('upstream down');
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (runs.length === 1) throw boom;
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 2);
  t.same(errors, [['a', boom]]);
  t.ok(runs[1]!.at - runs[0]!.at >= 39, `retried after ${runs[1]!.at - runs[0]!.at}ms`);
  await sleep(80);
  t.equal(runs.length, 2, 'a success after the retry stops the retries (null)');
});

t.test('without onError a throwing handler is still retried', async (t) => {
  const { scheduler, runs } = setup(t, { retryDelay: () => 10 });
  await scheduler.start(async ({ id: feedId }) => {
    runs.push({ feedId, at: Date.now() });
    if (runs.length === 1) throw new Error('boom');
    return null;
  });
  await scheduler.schedule('a', inMs(0));
  await until(() => runs.length === 2);
  t.equal(runs.length, 2);
});

t.test('close waits for the refreshes that are running and starts no more', async (t) => {
  const scheduler = createLocalScheduler({ concurrency: 1, retryDelay: retryDelayMs });
  const started: string[] = [];
  let finished = false;
  await scheduler.start(async ({ id: feedId }) => {
    started.push(feedId);
    await sleep(50);
    finished = true;
    return inMs(0);
  });
  await scheduler.schedule('a', inMs(0));
  await scheduler.schedule('b', inMs(0));
  await until(() => started.length === 1);
  await scheduler.close();
  t.ok(finished, 'close resolved only after the running refresh finished');
  await scheduler.schedule('c', inMs(0));
  await sleep(60);
  t.same(started, ['a'], 'neither the waiting feed, the returned date nor a new schedule ran');
});
