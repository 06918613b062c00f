import type { Feed } from '../domain/feed.js';
import { needsBrowser } from '../domain/render-mode.js';
import type { AppDeps } from './deps.js';
import type { Scheduler } from '../ports/scheduler.js';

export type RefreshQueueDeps = Pick<AppDeps, 'scheduler' | 'renderScheduler'>;
type Routed = Pick<Feed, 'id' | 'settings' | 'fetch'>;

/**
 * Cluster mode keeps the refreshes that need a browser on a queue of their own, served only by
 * workers that render (docs/rendering.md); one process (no `renderScheduler`) runs them all.
 */
export function refreshQueueOf(deps: RefreshQueueDeps, feed: Routed): Scheduler {
  return deps.renderScheduler && needsBrowser(feed) ? deps.renderScheduler : deps.scheduler;
}

/**
 * Plans the feed's refresh at `at` on the queue its needs pick, and takes it off the other one.
 * Placed first, taken off second: a crash between the two leaves one extra run, never none.
 */
export async function scheduleRefresh(deps: RefreshQueueDeps, feed: Routed, at: Date): Promise<void> {
  const target = refreshQueueOf(deps, feed);
  await target.schedule(feed.id, at);
  const other = target === deps.scheduler ? deps.renderScheduler : deps.scheduler;
  await other?.cancel(feed.id);
}

/** Stops the feed's refreshes on both queues. */
export async function cancelRefresh(deps: RefreshQueueDeps, feedId: string): Promise<void> {
  await deps.scheduler.cancel(feedId);
  await deps.renderScheduler?.cancel(feedId);
}
