import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';
import type { JobHandler, RetryDelay, Scheduler } from '../../src/ports/scheduler.js';

/** The options every scheduler takes alike (the local scheduler's, which BullMQ's mirror). */
export interface SchedulerContractOptions {
  concurrency?: number;
  onError?: (id: string, error: unknown) => void;
  retryDelay: RetryDelay;
}

/** Makes a fresh, empty scheduler; its `close` also removes whatever it stored. */
export type MakeScheduler = (options: SchedulerContractOptions) => Scheduler;

interface Run {
  id: string;
  at: number;
}

const at = (ms: number): Date => new Date(Date.now() + ms);

/** Resolves once `check` holds, polling; fails after `ms` (generous: CI machines are loaded). */
async function until(check: () => boolean, ms = 5000, what = 'the scheduler'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/**
 * The scheduler conformance suite (STYLE.md habit 4): the same assertions for the in-process
 * scheduler and BullMQ. Times are tens to hundreds of milliseconds, with margins wide enough for a
 * busy two-core machine; "not before" is exact, "soon" is generous.
 */
export function schedulerContract(t: Test, name: string, make: MakeScheduler): void {
  /** A scheduler closed when the test ends, with a handler that logs each run and returns `next`. */
  const setup = (t: Test, options: Partial<SchedulerContractOptions> = {}): Scheduler => {
    const scheduler = make({ retryDelay: retryDelayMs, ...options });
    t.teardown(() => scheduler.close());
    return scheduler;
  };
  const logging = (runs: Run[], next: (run: Run) => Date | null | Promise<Date | null> = () => null): JobHandler => {
    return async ({ id }) => {
      const run = { id, at: Date.now() };
      runs.push(run);
      return next(run);
    };
  };

  t.test(`${name}: a job runs at the time it was scheduled for, not before`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.start(logging(runs));
    const late = at(300);
    const early = at(100);
    await scheduler.schedule('late', late);
    await scheduler.schedule('early', early);
    await until(() => runs.length === 2);
    t.same(
      runs.map((run) => run.id),
      ['early', 'late'],
      'in time order',
    );
    t.ok(runs[0]!.at >= early.getTime(), `early ran ${early.getTime() - runs[0]!.at} ms before its time`);
    t.ok(runs[1]!.at >= late.getTime(), `late ran ${late.getTime() - runs[1]!.at} ms before its time`);
  });

  t.test(`${name}: a time in the past runs at once`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.start(logging(runs));
    await scheduler.schedule('a', new Date(0));
    await until(() => runs.length === 1);
    t.equal(runs[0]?.id, 'a');
  });

  t.test(`${name}: jobs scheduled before start run once there is a handler`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.schedule('a', at(5));
    await sleep(50);
    t.equal(runs.length, 0);
    await scheduler.start(logging(runs));
    await until(() => runs.length === 1);
    t.equal(runs[0]?.id, 'a');
  });

  t.test(`${name}: the handler is given the job id, no state`, async (t) => {
    const scheduler = setup(t);
    const jobs: { id: string; keys: string[] }[] = [];
    await scheduler.start(async (job) => {
      jobs.push({ id: job.id, keys: Object.keys(job).sort() });
      return null;
    });
    await scheduler.schedule('feed-42', at(0));
    await until(() => jobs.length === 1);
    t.same(jobs, [{ id: 'feed-42', keys: ['id'] }]);
  });

  t.test(`${name}: the date the handler returns schedules the next run, and null stops`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.start(logging(runs, () => (runs.length < 3 ? at(60) : null)));
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 3);
    t.ok(runs[1]!.at - runs[0]!.at >= 59, `second run ${runs[1]!.at - runs[0]!.at} ms after the first`);
    t.ok(runs[2]!.at - runs[1]!.at >= 59, `third run ${runs[2]!.at - runs[1]!.at} ms after the second`);
    await sleep(300);
    t.equal(runs.length, 3, 'no run after the handler returned null');
  });

  t.test(`${name}: scheduling a job again moves it earlier, never later`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.start(logging(runs));
    const start = Date.now();
    await scheduler.schedule('a', at(600));
    await scheduler.schedule('a', at(50));
    await scheduler.schedule('a', at(1200));
    await until(() => runs.length === 1);
    t.ok(runs[0]!.at - start < 500, `ran after ${runs[0]!.at - start} ms, at the earliest time asked`);
    await sleep(1500 - (Date.now() - start));
    t.equal(runs.length, 1, 'scheduled three times, ran once');
  });

  t.test(`${name}: ensure adds a job that has none, and leaves a planned job at its own time`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.start(logging(runs));
    const start = Date.now();
    await scheduler.ensure([{ id: 'new', runAt: at(50) }]);
    await scheduler.schedule('planned', at(900));
    await scheduler.ensure([{ id: 'planned', runAt: at(0) }]);
    await until(() => runs.length === 1);
    t.equal(runs[0]!.id, 'new', 'a job with none is added');
    await sleep(500 - (Date.now() - start));
    t.equal(runs.length, 1, 'ensure did not move the planned job earlier');
    await until(() => runs.length === 2);
    t.ok(runs[1]!.at - start >= 900, `the planned job ran at its own time (${runs[1]!.at - start} ms)`);
  });

  /** Runs job `a` once and, while that run is held open, acts on it; the runs so far, the first run released. */
  const duringARun = async (t: Test, act: (scheduler: Scheduler) => Promise<void>): Promise<Run[]> => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    const release = gate();
    await scheduler.start(
      logging(runs, async () => {
        if (runs.length > 1) return null;
        await release.wait;
        return at(60_000);
      }),
    );
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 1);
    await act(scheduler);
    release.open();
    return runs;
  };

  t.test(`${name}: ensure during a run leaves the plan the run makes`, async (t) => {
    const runs = await duringARun(t, (scheduler) => scheduler.ensure([{ id: 'a', runAt: at(0) }]));
    await sleep(800);
    t.equal(runs.length, 1, 'no second run: the running job had a plan, so ensure kept it');
  });

  t.test(`${name}: ensure puts back a job cancelled while it ran`, async (t) => {
    // The feed was paused during the run, then resumed from the store: the job must come back.
    const runs = await duringARun(t, async (scheduler) => {
      await scheduler.cancel('a');
      await scheduler.ensure([{ id: 'a', runAt: at(0) }]);
    });
    await until(() => runs.length === 2, 5000, 'a second run: the cancel was undone by ensure');
    t.pass('the job ran again');
  });

  t.test(`${name}: ensure of a start-up's worth of jobs adds each missing one once and keeps the planned`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    // Each run plans the next an hour off, so a job is there all along, before, during and after its run.
    await scheduler.start(logging(runs, () => at(3_600_000)));
    // More than one lookup slice of the BullMQ adapter (1,000).
    const ids = Array.from({ length: 1_200 }, (_, n) => `feed-${n}`);
    await scheduler.schedule('feed-7', at(300));
    await scheduler.schedule('feed-1100', at(400));
    await scheduler.ensure(ids.map((id) => ({ id, runAt: at(3_600_000) })));
    await until(() => runs.length === 2, 10_000, 'the two planned jobs');
    t.same(runs.map((run) => run.id).sort(), ['feed-1100', 'feed-7'], 'the planned jobs kept their own (earlier) times, in both slices');
    await until(() => scheduler.size === 1_200, 10_000, 'one job for each id');
    await scheduler.ensure(ids.map((id) => ({ id, runAt: at(0) })));
    await sleep(800);
    t.equal(runs.length, 2, 'a second ensure moved none of the jobs already there, whatever time it gave');
    t.equal(scheduler.size, 1_200, 'and placed nothing beside them');
  });

  t.test(`${name}: many schedules of one job at the same moment make one run`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    await scheduler.start(logging(runs));
    await Promise.all(Array.from({ length: 10 }, (_, i) => scheduler.schedule('a', at(500 + i * 10))));
    await until(() => runs.length > 0);
    await sleep(300);
    t.equal(runs.length, 1);
  });

  t.test(`${name}: a job never runs twice at once, however often it is scheduled while running`, async (t) => {
    const scheduler = setup(t);
    let active = 0;
    let most = 0;
    let calls = 0;
    const release = gate();
    await scheduler.start(async () => {
      calls += 1;
      active += 1;
      most = Math.max(most, active);
      if (calls === 1) await release.wait;
      active -= 1;
      return null;
    });
    await scheduler.schedule('a', at(0));
    await until(() => calls === 1);
    for (let i = 0; i < 5; i++) await scheduler.schedule('a', at(0));
    await sleep(150);
    t.equal(calls, 1, 'no second run while the first is still going');
    release.open();
    await until(() => calls === 2);
    await sleep(200);
    t.equal(calls, 2, 'the schedules made during the run become one run after it');
    t.equal(most, 1);
  });

  t.test(`${name}: a time asked for during a run wins over a later time the handler returns`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    const release = gate();
    await scheduler.start(
      logging(runs, async () => {
        if (runs.length > 1) return null;
        await release.wait;
        return at(60_000);
      }),
    );
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 1);
    await scheduler.schedule('a', at(20));
    release.open();
    await until(() => runs.length === 2);
    t.ok(runs[1]!.at - runs[0]!.at < 3000, 'ran again soon, not in a minute');
  });

  t.test(`${name}: a cancelled job does not run`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    // Both due at once, and cancelled before any handler can run: no race with the clock on a
    // loaded machine (a job due in 50 ms could run before the cancel arrived).
    await scheduler.schedule('a', at(0));
    await scheduler.schedule('b', at(0));
    await scheduler.cancel('a');
    await scheduler.start(logging(runs));
    await until(() => runs.length === 1);
    await sleep(200);
    t.same(
      runs.map((run) => run.id),
      ['b'],
    );
    await scheduler.cancel('never-scheduled');
  });

  t.test(`${name}: a job cancelled during its run is not scheduled again`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    const release = gate();
    await scheduler.start(
      logging(runs, async () => {
        await release.wait;
        return at(10);
      }),
    );
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 1);
    await scheduler.cancel('a');
    release.open();
    await sleep(300);
    t.equal(runs.length, 1, 'the date the handler returned was ignored');
  });

  t.test(`${name}: a job cancelled and scheduled again during its run runs again`, async (t) => {
    const scheduler = setup(t);
    const runs: Run[] = [];
    const release = gate();
    await scheduler.start(
      logging(runs, async () => {
        if (runs.length === 1) await release.wait;
        return null;
      }),
    );
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 1);
    await scheduler.cancel('a');
    await scheduler.schedule('a', at(10));
    release.open();
    await until(() => runs.length === 2);
    t.equal(runs.length, 2);
  });

  t.test(`${name}: no more than \`concurrency\` jobs run at once`, async (t) => {
    const scheduler = setup(t, { concurrency: 2 });
    let active = 0;
    let most = 0;
    const done: string[] = [];
    await scheduler.start(async ({ id }) => {
      active += 1;
      most = Math.max(most, active);
      await sleep(50);
      active -= 1;
      done.push(id);
      return null;
    });
    for (const id of ['a', 'b', 'c', 'd', 'e']) await scheduler.schedule(id, at(0));
    await until(() => done.length === 5);
    t.equal(most, 2);
    t.same([...done].sort(), ['a', 'b', 'c', 'd', 'e'], 'every job ran, none twice');
  });

  t.test(`${name}: a handler that throws is reported and the job is tried again later`, async (t) => {
    const errors: [string, unknown][] = [];
    const scheduler = setup(t, { retryDelay: () => 100, onError: (id, error) => errors.push([id, error]) });
    const boom = new Error('store down');
    const runs: Run[] = [];
    await scheduler.start(
      logging(runs, () => {
        if (runs.length === 1) throw boom;
        return null;
      }),
    );
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 2);
    t.same(errors, [['a', boom]]);
    t.ok(runs[1]!.at - runs[0]!.at >= 99, `retried after ${runs[1]!.at - runs[0]!.at} ms`);
    await sleep(300);
    t.equal(runs.length, 2, 'a success after the retry ends the retries (null)');
  });

  t.test(`${name}: the retry policy is told how many failures in a row, and a success starts the count over`, async (t) => {
    const told: number[] = [];
    const scheduler = setup(t, {
      retryDelay: (_error, failures) => {
        told.push(failures);
        return 20;
      },
    });
    const runs: Run[] = [];
    // Runs 1-3 fail, run 4 succeeds and asks for run 5 at once, which fails; run 6 is done.
    await scheduler.start(
      logging(runs, () => {
        if (runs.length === 4) return at(0);
        if (runs.length === 6) return null;
        throw new Error(`failure ${runs.length}`);
      }),
    );
    await scheduler.schedule('a', at(0));
    await until(() => runs.length === 6, 10_000, 'six runs');
    t.same(told, [1, 2, 3, 1]);
  });

  t.test(`${name}: close waits for the running jobs and starts no more`, async (t) => {
    const scheduler = setup(t, { concurrency: 1 });
    const started: string[] = [];
    let finished = false;
    await scheduler.start(async ({ id }) => {
      started.push(id);
      await sleep(150);
      finished = true;
      return at(0);
    });
    await scheduler.schedule('a', at(0));
    await scheduler.schedule('b', at(0));
    await until(() => started.length === 1);
    await scheduler.close();
    t.ok(finished, 'close resolved only after the running job finished');
    await scheduler.schedule('c', at(0));
    await sleep(200);
    t.equal(started.length, 1, 'neither the waiting job, the returned date nor a new schedule ran');
  });

  t.test(`${name}: size counts the jobs waiting and running, and drops as they end`, async (t) => {
    const scheduler = setup(t);
    t.equal(scheduler.size, 0);
    await scheduler.schedule('a', at(0));
    await scheduler.schedule('b', at(60_000));
    await until(() => scheduler.size === 2, 5000, 'size 2 (both waiting)');
    const release = gate();
    const runs: Run[] = [];
    await scheduler.start(
      logging(runs, async () => {
        await release.wait;
        return null;
      }),
    );
    await until(() => runs.length === 1);
    await sleep(100);
    t.equal(scheduler.size, 2, 'one running, one waiting');
    release.open();
    await until(() => scheduler.size === 1, 5000, 'size 1 (a done)');
    await scheduler.cancel('b');
    await until(() => scheduler.size === 0, 5000, 'size 0 (b cancelled)');
  });
}
