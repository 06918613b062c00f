import type { AppDeps } from './deps.js';

/**
 * At start-up, every live feed gets its refresh scheduled again, at its recorded time (or now when
 * it was due while nothing ran). Scheduling is idempotent, so running this twice is harmless.
 * All go on `scheduler`: a feed that needs a browser is moved to its own queue by the refresh job
 * when it comes due (jobs/refresh-feed.ts), which is also when it would have run.
 */
export async function resumeSchedules(deps: Pick<AppDeps, 'feeds' | 'scheduler' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.feeds.listDue();
  for (const { id, nextFetchAt } of due) {
    const at = nextFetchAt ? new Date(nextFetchAt) : now;
    await deps.scheduler.schedule(id, at < now ? now : at);
  }
  return due.length;
}
