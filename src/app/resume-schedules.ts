import type { PlannedRun, Scheduler } from '../ports/scheduler.js';
import type { AppDeps } from './deps.js';
import { refreshQueueOf, type RefreshQueueDeps } from './refresh-queue.js';

/**
 * Feeds a start-up walk reads at a time: what one Redis round trip asks of the jobs held
 * (adapters/bullmq/held-jobs.ts). The walk holds one page, however many feeds there are.
 */
export const walkPageSize = 1_000;

/**
 * At start-up, every live feed without a planned refresh gets one, at its recorded time (or now
 * when it was due while nothing ran). A feed that already has one keeps it: the recorded times are
 * read during a walk that can take a minute at 1M feeds, and a running worker's plan made meanwhile
 * is newer than them (moving it earlier fetched the feed twice; bench/README.md "scale"). Running
 * this twice is harmless, and so is stopping it part way (`stopping`, a SIGTERM during the start):
 * the next start walks again. Returns how many feeds it walked.
 * Each goes on the queue its refresh runs on (app/refresh-queue.ts): a job for a rendered feed
 * put on the plain queue found no job there, so it was placed beside the real one and, run by the
 * plain queue, pulled the rendered refresh to "now" (a second fetch through the browser).
 * `walkedSoFar` is told the count after each page, for a start that shows its progress.
 */
export async function resumeSchedules(
  deps: Pick<AppDeps, 'feeds' | 'clock'> & RefreshQueueDeps,
  stopping?: AbortSignal,
  walkedSoFar?: (walked: number) => void,
): Promise<number> {
  const now = deps.clock.now();
  let walked = 0;
  for await (const page of deps.feeds.dueFeeds(walkPageSize)) {
    // Handed over per queue in one list: a queue in Redis looks up which jobs it holds in bulk.
    const byQueue = new Map<Scheduler, PlannedRun[]>();
    for (const feed of page) {
      const at = feed.fetch.nextFetchAt ? new Date(feed.fetch.nextFetchAt) : now;
      const queue = refreshQueueOf(deps, feed);
      const runs = byQueue.get(queue) ?? [];
      runs.push({ id: feed.id, runAt: at < now ? now : at });
      byQueue.set(queue, runs);
    }
    for (const [queue, runs] of byQueue) await queue.ensure(runs);
    walked += page.length;
    walkedSoFar?.(walked);
    if (stopping?.aborted) break;
  }
  return walked;
}
