import { refreshFeed, type RefreshDeps } from '../app/refresh-feed.js';
import type { JobHandler } from '../ports/scheduler.js';

export interface RefreshLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The refresh job: `{ feedId }` → the refresh use case → the time of the next run. The same
 * handler is driven by the local scheduler and by BullMQ.
 */
export function refreshFeedHandler(deps: RefreshDeps, log: RefreshLog): JobHandler {
  return async ({ id: feedId }) => {
    const outcome = await refreshFeed(deps, feedId);
    if (!outcome) return null;
    log.info(
      { feedId, status: outcome.status, error: outcome.error, fresh: outcome.fresh.length, changed: outcome.changed.length, next: outcome.nextRunAt.toISOString() },
      'feed refreshed',
    );
    return outcome.nextRunAt;
  };
}
