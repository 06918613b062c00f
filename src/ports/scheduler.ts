/** A job carries an id, never state (STYLE.md habit 2): a feed id, or a delivery id. */
export interface Job {
  id: string;
}

/** A job and the time it should run at. */
export interface PlannedRun {
  id: string;
  runAt: Date;
}

/**
 * How long to wait before running a job again whose handler threw, `failures` times in a row (1 on
 * the first). One policy (src/jobs/retry-policy.ts) is given to every scheduler: they only schedule.
 */
export type RetryDelay = (error: unknown, failures: number) => number;

/** Runs one job; returns when to run it again, or null when it is done. */
export type JobHandler = (job: Job) => Promise<Date | null>;

/**
 * Runs jobs at their time, at most one per id at a time. The handler decides the next run; the
 * scheduler keeps it. One scheduler runs feed refreshes, another webhook deliveries.
 */
export interface Scheduler {
  /**
   * Runs jobs with `handler` from now on. `onLost` is called when the scheduler finds that jobs it
   * held were lost (cluster mode: Redis restarted without its data); the owner then schedules
   * again from the store. A scheduler that cannot lose jobs never calls it.
   */
  start(handler: JobHandler, onLost?: () => Promise<void>): Promise<void>;
  /** Schedules (or moves earlier) the job's next run. Idempotent per id. */
  schedule(id: string, runAt: Date): Promise<void>;
  /**
   * Schedules each job at its `runAt` only when it has none (waiting, planned or running): a job
   * already there keeps its time. For re-placing jobs from the store, whose recorded times may be
   * older than the plan a running worker has just made (bench/README.md "scale", duplicate
   * fetches). Given all at once so a scheduler that keeps its jobs elsewhere looks them up in bulk:
   * at a worker's start nearly every job is there already.
   */
  ensure(jobs: readonly PlannedRun[]): Promise<void>;
  cancel(id: string): Promise<void>;
  /** Jobs waiting or running in this process (a gauge for /metrics). */
  readonly size: number;
  /** Stops taking jobs and waits for the ones running. */
  close(): Promise<void>;
}
