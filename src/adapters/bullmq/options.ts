import type { RetryDelay } from '../../ports/scheduler.js';

/** Options of {@link createBullmqScheduler}; the first four mean what they mean for the local scheduler. */
export interface BullmqSchedulerOptions {
  /**
   * Redis URL, e.g. `redis://127.0.0.1:6379`.
   * @example 'redis://redis.internal:6379/0'
   */
  connection: string;
  /**
   * Queue name: one queue per kind of job, e.g. `refresh` or `delivery`.
   * @example 'refresh'
   */
  queue: string;
  /**
   * Jobs this process runs at once (each replica adds its own).
   * @default 8
   */
  concurrency?: number;
  /** Told about a handler that threw; the job is tried again after `retryDelay`. */
  onError?: (id: string, error: unknown) => void;
  /** When a job whose handler threw runs again (the count of failures in a row travels with the job). */
  retryDelay: RetryDelay;
  /** Told how late (seconds) each job started against its planned time. */
  onLag?: (seconds: number) => void;
  /** Told about Redis and BullMQ errors that belong to no job (lost connections; BullMQ reconnects). */
  onRedisError?: (error: Error) => void;
  /**
   * Key prefix of every Redis key of the queue.
   * @default 'feedmill'
   */
  prefix?: string;
  /**
   * How long a worker's lock on a running job lasts; the worker renews it every half of this while
   * the job runs. A worker that stops renewing (killed, or its event loop blocked this long) loses
   * the job to the stalled checker. Parsing runs in the piscina pool, so the loop stays free.
   * @default 30000
   */
  lockDurationMs?: number;
  /**
   * How often this worker looks for stalled jobs (active, lock expired). A job is moved back to
   * waiting at the second check that finds it, so a killed worker's job runs again on another one
   * within about `lockDurationMs + 2 × stalledIntervalMs`.
   * @default 30000
   */
  stalledIntervalMs?: number;
  /**
   * How often `size` is refreshed from Redis (it is also refreshed soon after each change made here).
   * @default 5000
   */
  sizeRefreshMs?: number;
  /**
   * How often a started scheduler checks that Redis still holds its queue (see loss-watch.ts).
   * @default 5000
   */
  lossCheckMs?: number;
}
