import type { AppDeps } from './deps.js';

/**
 * At start-up, every live feed without a planned refresh gets one, at its recorded time (or now
 * when it was due while nothing ran). A feed that already has one keeps it: the recorded times are
 * read once at the start of a walk that can take minutes at 100k feeds, and a running worker's
 * plan made meanwhile is newer than them (moving it earlier fetched the feed twice; bench/README.md
 * "scale"). Running this twice is harmless.
 * All go on `scheduler`: a feed that needs a browser is moved to its own queue by the refresh job
 * when it comes due (jobs/refresh-feed.ts), which is also when it would have run.
 */
export async function resumeSchedules(deps: Pick<AppDeps, 'feeds' | 'scheduler' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.feeds.listDue();
  for (const { id, nextFetchAt } of due) {
    const at = nextFetchAt ? new Date(nextFetchAt) : now;
    await deps.scheduler.ensure(id, at < now ? now : at);
  }
  return due.length;
}
