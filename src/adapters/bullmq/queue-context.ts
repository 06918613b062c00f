import type { JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RunData } from './run-data.js';

/** What `schedule`, `cancel` and the end of a run share: the queue, a plain connection, key names. */
export interface QueueContext {
  queue: Queue<RunData>;
  /** For the schedule lock and for reading planned times; BullMQ's own connections stay its own. */
  redis: Redis;
  /** `{prefix}:{queue}:delayed`, BullMQ's sorted set of delayed jobs. */
  delayedKey: string;
  /**
   * The schedule lock of one job. `feedmill:lock:` keeps it apart from BullMQ's keys: a job id
   * cannot contain `:`, so no job key of BullMQ's (`{id}`, `{id}:lock`, `{id}:logs`) can equal it.
   */
  lockKey(id: string): string;
  /** Options of every job added. */
  jobOptions: JobsOptions;
}
