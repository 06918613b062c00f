import { fork, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Deployment } from './modes.js';
import type { FromWorker, ToWorker } from './protocol.js';
import type { PollSource } from './source.js';

const childPath = fileURLToPath(new URL('./worker-child.js', import.meta.url));

/** How feeds were fetched for one due time: each should be fetched exactly once. */
export interface DuePhase {
  feeds: number;
  once: number;
  /** Feeds fetched more than once for this due time, and the extra fetches. */
  duplicated: number;
  extraFetches: number;
  /** Feeds not fetched at all. */
  skipped: number;
  ms: number;
}

export interface OnceCase {
  feeds: number;
  phases: DuePhase[];
  /** Refresh jobs each worker ran, over the whole run. */
  perWorker: number[];
}

/** Each phase waits until every feed was fetched, then this long without a fetch, for late duplicates. */
const quietMs = 3_000;

interface WorkerHandle {
  child: ChildProcess;
  post(message: ToWorker): void;
  receive<T extends FromWorker['type']>(type: T): Promise<Extract<FromWorker, { type: T }>>;
}

function startWorker(env: Record<string, string | undefined>, label: string): WorkerHandle {
  const child = fork(childPath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env });
  const inbox: FromWorker[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (message: FromWorker) => {
    inbox.push(message);
    wake?.();
  });
  child.once('exit', () => wake?.());
  return {
    child,
    post: (message) => void child.send(message),
    async receive(type) {
      for (;;) {
        const message = inbox.shift();
        if (message?.type === 'failed') throw new Error(`${label} failed: ${message.message}`);
        if (message?.type === type) return message as Extract<FromWorker, { type: typeof type }>;
        if (message) throw new Error(`Expected "${type}" from ${label}, got "${message.type}"`);
        if (child.exitCode !== null) throw new Error(`${label} exited (${child.exitCode}) while we waited for "${type}"`);
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

/**
 * Two worker processes on one Redis and one Cassandra keyspace. The first creates the feeds; both
 * run the refresh queue with the real handler, each run planning the next one an hour ahead (the
 * job moves itself back to `delayed`, as in production). Each phase makes every feed due now
 * (`schedule`, which moves the delayed job earlier) and counts the fixture source's requests per
 * feed: exactly one per feed and due time is the goal.
 */
export async function runOnceCase(source: PollSource, deployment: Deployment, feeds: number, phases: number): Promise<OnceCase> {
  const env = { ...process.env, ...deployment.env, BENCH_POLL_ORIGIN: source.origin, BENCH_POLL_NEXT_MS: String(3_600_000) };
  source.mode = 'stable';
  const first = startWorker({ ...env, BENCH_POLL_FEEDS: String(feeds) }, 'worker 1');
  const workers = [first];
  try {
    const ready = await first.receive('ready');
    process.stderr.write(`  once ${feeds}: created ${feeds} feeds at ${(ready.created / (ready.ms / 1000)).toFixed(0)}/s\n`);
    const second = startWorker({ ...env, BENCH_POLL_FEEDS: '0' }, 'worker 2');
    workers.push(second);
    await second.receive('ready');
    const results: DuePhase[] = [];
    for (let phase = 1; phase <= phases; phase++) {
      source.takeByFeed();
      const begin = performance.now();
      first.post({ type: 'schedule', from: 0, to: feeds });
      await first.receive('scheduled');
      while (source.feedRequests < feeds) await sleep(100);
      const ms = performance.now() - begin;
      for (let seen = -1; seen !== source.feedRequests;) {
        seen = source.feedRequests;
        await sleep(quietMs);
      }
      const counts = source.takeByFeed();
      let once = 0;
      let duplicated = 0;
      let extraFetches = 0;
      for (let n = 0; n < feeds; n++) {
        const fetched = counts.get(n) ?? 0;
        if (fetched === 1) once++;
        if (fetched > 1) {
          duplicated++;
          extraFetches += fetched - 1;
        }
      }
      results.push({ feeds, once, duplicated, extraFetches, skipped: feeds - once - duplicated, ms });
      process.stderr.write(
        `  once ${feeds}: due time ${phase}: ${once} fetched once, ${duplicated} more than once, ${feeds - once - duplicated} never, in ${(ms / 1000).toFixed(1)} s\n`,
      );
    }
    const perWorker: number[] = [];
    for (const worker of workers) {
      worker.post({ type: 'count' });
      perWorker.push((await worker.receive('count')).refreshes);
    }
    for (const worker of workers) {
      worker.post({ type: 'close' });
      await worker.receive('closed');
    }
    return { feeds, phases: results, perWorker };
  } finally {
    for (const { child } of workers) if (child.exitCode === null) child.kill();
  }
}
