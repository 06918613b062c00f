/** A refresh job carries the feed id, never state (STYLE.md habit 2). */
export interface RefreshJob {
  feedId: string;
}

/** Returns when the feed should be refreshed next, or null to stop (the feed is gone). */
export type RefreshHandler = (job: RefreshJob) => Promise<Date | null>;

/**
 * Runs refresh jobs at their time, at most one per feed at a time. The handler decides the next
 * run; the scheduler keeps it.
 */
export interface Scheduler {
  start(handler: RefreshHandler): Promise<void>;
  /** Schedules (or moves) the feed's next refresh. Idempotent per feed id. */
  schedule(feedId: string, runAt: Date): Promise<void>;
  cancel(feedId: string): Promise<void>;
  /** Stops taking jobs and waits for the ones running. */
  close(): Promise<void>;
}
