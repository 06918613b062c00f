import { DelayedError, type Job as BullJob, type Processor } from 'bullmq';
import type { Job, JobHandler, RetryDelay } from '../../ports/scheduler.js';
import type { QueueContext } from './queue-context.js';
import { nextRunAt, type RunData } from './run-data.js';
import { planNext } from './plan-next.js';
import { withScheduleLock } from './schedule-lock.js';
import { onWakeGrid } from './wake-grid.js';

export interface RunOptions {
  onError?: (id: string, error: unknown) => void;
  onLag?: (seconds: number) => void;
  retryDelay: RetryDelay;
  /** How long a confirmed hold lasts (the worker's lockDuration). */
  lockDurationMs: number;
  /** Called once a run has planned the next one (or completed the job). */
  afterRun: () => void;
}

/**
 * The BullMQ processor: runs the handler, then plans the job's next run itself, under the job's
 * schedule lock, and tells BullMQ so with a `DelayedError` (BullMQ's documented signal that the
 * processor moved the job; the worker then leaves it alone).
 *
 * The next run is the same job moved back to `delayed` by `job.moveToDelayed(at, token)` — one
 * atomic Redis script that checks our lock token and moves the job from `active` to `delayed`.
 * There is no moment with no job: before the move the job is active under our lock, so if this
 * process dies the stalled checker hands it to another worker, which runs it and plans again;
 * after the move the plan is in Redis. Completing and re-adding instead would have such a moment
 * (a worker dying between the two loses the feed's schedule). A run that is done (null, or
 * cancelled while it ran) completes the job, which `removeOnComplete` deletes, freeing the id.
 */
export function jobProcessor(ctx: QueueContext, handler: JobHandler, options: RunOptions): Processor<RunData, void> {
  return async (job: BullJob<RunData>, token?: string): Promise<void> => {
    const id = job.id;
    if (id === undefined || token === undefined)
      throw new Error(`Expected BullMQ to give the processor a job id and a lock token, got ${id} and ${token}`);
    options.onLag?.(Math.max(0, Date.now() - job.data.runAt) / 1000);
    // extendLock is one Redis script that renews the lock only if it still holds our token: a
    // worker that stalled past lockDuration finds another token there (or none) and learns it.
    // The handler's writes need no such check: the store refuses a refresh that was overtaken
    // (ItemStore.commit). This one only keeps a stalled run from planning over the new holder.
    const stillHeld = async (): Promise<boolean> => (await job.extendLock(token, options.lockDurationMs)) === 1;
    const startedAt = Date.now();
    const { next, failures } = await runHandler(handler, { id }, job.data.failures, options);
    // The lock taken with the job lasts lockDuration: a run shorter than half of it cannot have
    // lost it to the stalled checker, so only longer runs pay the extra round trip to ask.
    if (Date.now() - startedAt > options.lockDurationMs / 2 && !(await stillHeld())) {
      // Another worker runs the job now and plans its next run; writing our plan over its own
      // would only race it.
      options.afterRun();
      throw new DelayedError(`feedmill lost job ${id} to another worker while it ran; that worker plans the next run`);
    }
    // The usual case in one round trip (plan-next.ts); the lock held by a `schedule` meanwhile, or
    // a job hash gone, takes the step by step path below.
    const plan = await planNext(ctx.redis, ctx.lockKey(id), ctx.queue.toKey(id), next, failures);
    if (plan.kind === 'done' || plan.kind === 'delayed') {
      try {
        if (plan.kind === 'done') await job.moveToCompleted(null, token, false);
        else await job.moveToDelayed(onWakeGrid(plan.at), token);
      } finally {
        await plan.release();
      }
    } else {
      if (plan.kind === 'gone') await plan.release();
      await withScheduleLock(ctx.redis, ctx.lockKey(id), async () => {
        // Fresh from Redis: `schedule` or `cancel` may have left a request on the job while it ran.
        const fresh = await ctx.queue.getJob(id);
        const at = nextRunAt(next, fresh?.data.asked);
        if (at === null) {
          await job.moveToCompleted(null, token, false);
        } else {
          // Data first: dying between the two leaves the job active, so it reruns and plans afresh.
          await job.updateData({ runAt: at, failures });
          await job.moveToDelayed(onWakeGrid(at), token);
        }
      });
    }
    options.afterRun();
    throw new DelayedError('feedmill planned the next run (or completed the job) itself');
  };
}

/** The handler's verdict: when to run next (null: done), and how many failures in a row so far. */
async function runHandler(
  handler: JobHandler,
  job: Job,
  failuresBefore: number,
  options: RunOptions,
): Promise<{ next: number | null; failures: number }> {
  const id = job.id;
  try {
    const date = await handler(job);
    if (date === null) return { next: null, failures: 0 };
    if (Number.isNaN(date.getTime()))
      throw new Error(`Expected the handler of job ${id} to return a valid Date or null, got an invalid Date`);
    return { next: date.getTime(), failures: 0 };
  } catch (error) {
    try {
      options.onError?.(id, error);
    } catch {
      // A throwing reporter must not cost the job its retry.
    }
    const failures = failuresBefore + 1;
    return { next: Date.now() + options.retryDelay(error, failures), failures };
  }
}
