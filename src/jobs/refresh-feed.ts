import { refreshFeed } from '../app/refresh-feed.js';
import type { RefreshDeps } from '../app/refresh-pipeline.js';
import { recordRefresh } from '../app/refresh-metrics.js';
import type { AppDeps } from '../app/deps.js';
import type { JobHandler } from '../ports/scheduler.js';

export interface JobLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The refresh job: `{ id: feedId }` → the refresh use case → the time of the next run (none for a
 * feed that is paused or disabled). The same handler is driven by the local scheduler and by BullMQ.
 */
export function refreshFeedHandler(deps: RefreshDeps & Pick<AppDeps, 'metrics'>, log: JobLog): JobHandler {
  return async ({ id: feedId }) => {
    const started = performance.now();
    const outcome = await refreshFeed(deps, feedId);
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
