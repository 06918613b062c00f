import { refreshReadFeed } from '../app/refresh-feed.js';
import type { RefreshDeps } from '../app/refresh-pipeline.js';
import { recordRefresh } from '../app/refresh-metrics.js';
import type { AppDeps } from '../app/deps.js';
import type { JobHandler } from '../ports/scheduler.js';
import { refreshQueueOf, scheduleRefresh } from '../app/refresh-queue.js';

export interface JobLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The refresh job: `{ id: feedId }` → the refresh use case → the time of the next run (none for a
 * feed that is paused or disabled). The same handler is driven by the local scheduler and by BullMQ.
 * In cluster mode it runs on two queues (app/refresh-queue.ts), `queue` being the one it serves: a
 * feed found on the other queue's side of `needsBrowser` (its settings or its page changed, or
 * an older release's start-up put it on the plain queue) is moved there now instead of refreshed here.
 */
export function refreshFeedHandler(
  deps: RefreshDeps & Pick<AppDeps, 'metrics' | 'scheduler' | 'renderScheduler'>,
  log: JobLog,
  queue: 'refresh' | 'render' = 'refresh',
): JobHandler {
  const served = queue === 'render' ? deps.renderScheduler : deps.scheduler;
  return async ({ id: feedId }) => {
    // Read once: the queue is checked against the feed as stored now (a job carries only its id, and
    // the feed's settings may have changed since it was planned), and the refresh runs on that read.
    const feed = await deps.feeds.getById(feedId);
    if (!feed) return null;
    if (deps.renderScheduler && refreshQueueOf(deps, feed) !== served) {
      await scheduleRefresh(deps, feed, deps.clock.now());
      log.info({ feedId, to: queue === 'render' ? 'refresh' : 'render' }, 'feed refresh moved to the other queue');
      return null;
    }
    const started = performance.now();
    const outcome = await refreshReadFeed(deps, feed);
    if (!outcome) return null;
    recordRefresh(deps, feedId, outcome, (performance.now() - started) / 1000);
    log.info(
      {
        feedId,
        status: outcome.status,
        error: outcome.error,
        fresh: outcome.fresh.length,
        changed: outcome.changed.length,
        next: outcome.nextRunAt?.toISOString() ?? null,
      },
      'feed refreshed',
    );
    return outcome.nextRunAt;
  };
}

type WorkerDeps = Parameters<typeof refreshFeedHandler>[0] & Pick<AppDeps, 'renderer'>;

/**
 * Starts this worker's refresh queues: `refresh` always; in cluster mode `refresh-render` too, but
 * only when this process renders (a browser found, FEEDMILL_RENDER on), so a worker without one
 * never takes a refresh that needs it. `onLost(queue)` is told when Redis lost that queue.
 * @returns whether this worker took the `refresh-render` queue
 */
export async function startRefreshQueues(
  deps: WorkerDeps,
  log: JobLog,
  onLost?: (queue: 'refresh' | 'refresh-render') => () => Promise<void>,
): Promise<boolean> {
  await deps.scheduler.start(refreshFeedHandler(deps, log), onLost?.('refresh'));
  if (!deps.renderScheduler || !deps.renderer) return false;
  await deps.renderScheduler.start(refreshFeedHandler(deps, log, 'render'), onLost?.('refresh-render'));
  return true;
}
