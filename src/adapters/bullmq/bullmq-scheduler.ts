import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { JobHandler, Scheduler } from '../../ports/scheduler.js';
import type { BullmqSchedulerOptions } from './options.js';
import { watchForLoss, type LossWatch } from './loss-watch.js';
import { heldJobs } from './held-jobs.js';
import { placeJob, removeJob } from './place-job.js';
import type { QueueContext } from './queue-context.js';
import { cachedQueueSize } from './queue-size.js';
import type { RunData } from './run-data.js';
import { jobProcessor } from './run-job.js';

/**
 * A job is one feed's (or delivery's) actor and lives for as long as it is scheduled: the job id is
 * the id, and each run moves it back to `delayed` (see run-job.ts). BullMQ's stall limit counts
 * over a job's whole life and would eventually fail a feed that outlived a few crashed workers, so
 * it is effectively off: a job whose worker dies is always run again.
 */
const maxStalledCount = Number.MAX_SAFE_INTEGER;

/** Jobs `ensure` looks up in one pipeline: large enough to amortise the round trip, small enough not to hold Redis up. */
const lookupSlice = 1_000;

/**
 * The cluster scheduler: jobs in a BullMQ queue in Redis, run by every process that called `start`
 * — at most one run per id at a time across all of them. Scheduling the same id again never makes
 * a second job: an earlier time moves the job earlier, a later one changes nothing, and a time
 * asked for while the job runs is kept on the job for the end of that run. A handler that throws
 * is reported and retried with exponential backoff. A worker that dies mid-run loses its lock, and
 * BullMQ's stalled checker (in every other worker) hands the job to another worker; see
 * `lockDurationMs` and `stalledIntervalMs`. `size` counts the whole queue, not just this process.
 */
export function createBullmqScheduler(options: BullmqSchedulerOptions): Scheduler {
  const prefix = options.prefix ?? 'feedmill';
  const lockDurationMs = options.lockDurationMs ?? 30_000;
  const onRedisError = options.onRedisError ?? ((): void => undefined);
  const connection = { url: options.connection };
  const queue = new Queue<RunData>(options.queue, { connection, prefix });
  const redis = new Redis(options.connection, { connectionName: `feedmill-scheduler-${options.queue}` });
  // Without 'error' listeners an emitter's error would crash the process; these reconnect instead.
  queue.on('error', onRedisError);
  redis.on('error', onRedisError);
  const ctx: QueueContext = {
    queue,
    redis,
    delayedKey: queue.toKey('delayed'),
    lockKey: (id) => `${queue.toKey('feedmill')}:lock:${id}`,
    jobOptions: {
      removeOnComplete: true,
      removeOnFail: true,
      // Handler failures are retried by run-job.ts, by the retry policy. These only cover a run that
      // could not record its next plan (Redis failing at that moment): not a failure of the job but
      // of the queue itself, which BullMQ retries every few seconds instead of failing the job.
      attempts: Number.MAX_SAFE_INTEGER,
      backoff: { type: 'fixed', delay: 5_000 },
    },
  };
  const size = cachedQueueSize(queue, options.sizeRefreshMs ?? 5_000, onRedisError);
  let worker: Worker<RunData, void> | undefined;
  let lossWatch: LossWatch | undefined;
  let closing: Promise<void> | undefined;

  const startWorker = (handler: JobHandler): Worker<RunData, void> => {
    const processor = jobProcessor(ctx, handler, {
      onError: options.onError,
      onLag: options.onLag,
      retryDelay: options.retryDelay,
      lockDurationMs,
      afterRun: () => size.refreshSoon(),
    });
    const started = new Worker<RunData, void>(options.queue, processor, {
      connection,
      prefix,
      concurrency: options.concurrency ?? 8,
      lockDuration: lockDurationMs,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount,
    });
    started.on('error', onRedisError);
    started.on('active', () => size.refreshSoon());
    // Reached only when a run could not even record its failure (see jobOptions.attempts).
    started.on('failed', (job, error) => options.onError?.(job?.id ?? '(unknown job)', error));
    return started;
  };

  return {
    get size() {
      return size.value;
    },
    async start(handler, onLost) {
      if (worker) throw new Error(`Expected start to be called once, but the ${options.queue} scheduler has already started`);
      if (closing) return;
      worker = startWorker(handler);
      if (onLost) lossWatch = watchForLoss(redis, `${queue.toKey('feedmill')}:marker`, options.lossCheckMs ?? 5_000, onLost, onRedisError);
    },
    async schedule(id, runAt) {
      if (closing) return;
      if (Number.isNaN(runAt.getTime())) throw new Error(`Expected runAt of job ${id} to be a valid Date, got an invalid Date`);
      await placeJob(ctx, id, runAt.getTime());
      size.refreshSoon();
    },
    async ensure(jobs) {
      for (const { id, runAt } of jobs) {
        if (Number.isNaN(runAt.getTime())) throw new Error(`Expected runAt of job ${id} to be a valid Date, got an invalid Date`);
      }
      // At a restart nearly every job is there: one pipelined look per slice, not a locked round per job.
      for (let start = 0; start < jobs.length && !closing; start += lookupSlice) {
        const slice = jobs.slice(start, start + lookupSlice);
        const held = await heldJobs(
          ctx,
          slice.map((job) => job.id),
        );
        for (const { id, runAt } of slice) if (!held.has(id) && !closing) await placeJob(ctx, id, runAt.getTime(), 'if-absent');
      }
      size.refreshSoon();
    },
    async cancel(id) {
      if (closing) return;
      await removeJob(ctx, id);
      size.refreshSoon();
    },
    close() {
      closing ??= (async () => {
        // Reverse order of start (STYLE.md habit 14): stop taking jobs and let the running finish
        // (they need the queue and the plain connection to plan their next run), then disconnect.
        await lossWatch?.stop();
        await worker?.close();
        await size.stop();
        await queue.close();
        await redis.quit();
      })();
      return closing;
    },
  };
}
