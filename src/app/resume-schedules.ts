import type { PlannedRun, Scheduler } from '../ports/scheduler.js';
import type { AppDeps } from './deps.js';
import { refreshQueueOf, type RefreshQueueDeps } from './refresh-queue.js';

/**
 * At start-up, every live feed without a planned refresh gets one, at its recorded time (or now
 * when it was due while nothing ran). A feed that already has one keeps it: the recorded times are
 * read once at the start of a walk that can take minutes at 100k feeds, and a running worker's
 * plan made meanwhile is newer than them (moving it earlier fetched the feed twice; bench/README.md
 * "scale"). Running this twice is harmless.
 * Each goes on the queue its refresh runs on (app/refresh-queue.ts): a job for a rendered feed
 * put on the plain queue found no job there, so it was placed beside the real one and, run by the
 * plain queue, pulled the rendered refresh to "now" (a second fetch through the browser).
 */
export async function resumeSchedules(deps: Pick<AppDeps, 'feeds' | 'clock'> & RefreshQueueDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.feeds.listDue();
  // Handed over per queue in one list: a queue in Redis looks up which jobs it holds in bulk.
  const byQueue = new Map<Scheduler, PlannedRun[]>();
  for (const feed of due) {
    const at = feed.fetch.nextFetchAt ? new Date(feed.fetch.nextFetchAt) : now;
    const queue = refreshQueueOf(deps, feed);
    const runs = byQueue.get(queue) ?? [];
    runs.push({ id: feed.id, runAt: at < now ? now : at });
    byQueue.set(queue, runs);
  }
  for (const [queue, runs] of byQueue) await queue.ensure(runs);
  return due.length;
}
