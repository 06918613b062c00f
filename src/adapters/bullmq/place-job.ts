import { plannedTime } from './planned-time.js';
import { askRun, type RunData } from './run-data.js';
import type { QueueContext } from './queue-context.js';
import { withScheduleLock } from './schedule-lock.js';
import { onWakeGrid } from './wake-grid.js';

/**
 * Our lock keeps our own writers apart, but BullMQ moves jobs on its own (delayed → waiting →
 * active, active → waiting when stalled). A step that finds the job in another state than it read
 * reads again; a few rounds always settle, since each of those moves happens at most once per run.
 */
const rounds = 8;

/**
 * `earlier`: the job runs no later than `at`. `if-absent`: the job is added for `at` only when
 * there is none; one already waiting, planned or running keeps its own time.
 */
export type Placement = 'earlier' | 'if-absent';

/**
 * Makes the job `id` run at `at` as `placement` says, and at most once: the job id is the id, so
 * there is never a second job. A running job keeps the time on itself (`asked`) for the end of its run.
 */
export async function placeJob(ctx: QueueContext, id: string, at: number, placement: Placement = 'earlier'): Promise<void> {
  await withScheduleLock(ctx.redis, ctx.lockKey(id), async () => {
    for (let round = 0; round < rounds; round++) if (await placeOnce(ctx, id, at, placement)) return;
    throw new Error(`Expected job ${id} to settle in a state while scheduling it, but it kept moving`);
  });
}

/** Takes the job `id` off the queue; a running job is told (`asked: 'cancel'`) not to come back. */
export async function removeJob(ctx: QueueContext, id: string): Promise<void> {
  await withScheduleLock(ctx.redis, ctx.lockKey(id), async () => {
    for (let round = 0; round < rounds; round++) if (await removeOnce(ctx, id)) return;
    throw new Error(`Expected job ${id} to settle in a state while cancelling it, but it kept moving`);
  });
}

/** One attempt; false when the job moved under us and the caller should look again. */
async function placeOnce(ctx: QueueContext, id: string, at: number, placement: Placement): Promise<boolean> {
  const state = await ctx.queue.getJobState(id);
  if (state === 'unknown') return add(ctx, id, at);
  if (state === 'completed' || state === 'failed') {
    // Left behind only when removeOnComplete/removeOnFail could not run; it blocks the id.
    await ctx.queue.remove(id);
    return false;
  }
  const job = await ctx.queue.getJob(id);
  if (job === undefined) return false;
  // A job told to stop (its feed deleted) is not one to keep: it is scheduled as any other time.
  if (placement === 'if-absent' && job.data.asked !== 'cancel') return true;
  if (state === 'active') {
    await job.updateData({ ...job.data, asked: askRun(job.data.asked, at) });
    // Still running: the end of the run (which takes our lock) will read it.
    return (await ctx.queue.getJobState(id)) === 'active';
  }
  // Waiting, delayed or alike: a scheduled job is no longer cancelled.
  const data: RunData = { ...job.data, asked: job.data.asked === 'cancel' ? undefined : job.data.asked };
  if (state === 'delayed') {
    const planned = await plannedTime(ctx.redis, ctx.delayedKey, id);
    if (planned === undefined) return false;
    if (planned > onWakeGrid(at)) {
      try {
        await job.changeDelay(Math.max(0, onWakeGrid(at) - Date.now()));
      } catch (error) {
        // It throws when the job left the delayed set meanwhile (due, or taken): look again.
        if ((await ctx.queue.getJobState(id)) === 'delayed') throw error;
        return false;
      }
      data.runAt = at;
    }
  }
  if (data.asked !== job.data.asked || data.runAt !== job.data.runAt) await job.updateData(data);
  return true;
}

/**
 * Only this adapter adds jobs, always under the job's lock, so the id found unknown is still free.
 * (BullMQ would answer an add of an existing id with that id and change nothing.)
 */
async function add(ctx: QueueContext, id: string, at: number): Promise<boolean> {
  const data: RunData = { runAt: at, failures: 0 };
  // BullMQ files a delayed job at timestamp + delay: both given, so it lands on the grid exactly.
  const timestamp = Date.now();
  await ctx.queue.add('run', data, { ...ctx.jobOptions, jobId: id, timestamp, delay: Math.max(0, onWakeGrid(at, timestamp) - timestamp) });
  return true;
}

async function removeOnce(ctx: QueueContext, id: string): Promise<boolean> {
  const state = await ctx.queue.getJobState(id);
  if (state === 'unknown') return true;
  if (state === 'active') {
    const job = await ctx.queue.getJob(id);
    if (job === undefined) return false;
    await job.updateData({ ...job.data, asked: 'cancel' });
    return (await ctx.queue.getJobState(id)) === 'active';
  }
  // 0 when the job is locked: a worker took it meanwhile.
  return (await ctx.queue.remove(id)) === 1;
}
