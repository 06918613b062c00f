import type { QueueContext } from './queue-context.js';
import type { RunData } from './run-data.js';

/**
 * Which of `ids` have a job that will run again — waiting, planned or running, not finished and not
 * told to stop — read in one pipelined round trip from the job hashes BullMQ keeps
 * (`{prefix}:{queue}:{id}`, fields `finishedOn` and `data`). A filter before `placeJob`, which
 * decides under the job's lock: an id read here as held keeps its job exactly as `placeJob`'s
 * `if-absent` would keep it; any other goes the whole way.
 */
export async function heldJobs(ctx: QueueContext, ids: readonly string[]): Promise<Set<string>> {
  const pipeline = ctx.redis.pipeline();
  for (const id of ids) pipeline.hmget(ctx.queue.toKey(id), 'finishedOn', 'data');
  const answers = (await pipeline.exec()) ?? [];
  const held = new Set<string>();
  answers.forEach(([error, fields], n) => {
    if (error) throw error;
    const [finishedOn, data] = fields as [string | null, string | null];
    if (data === null || finishedOn !== null) return;
    if ((JSON.parse(data) as RunData).asked === 'cancel') return;
    held.add(ids[n] as string);
  });
  return held;
}
