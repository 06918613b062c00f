import { refreshFeed, type RefreshDeps } from '../app/refresh-feed.js';
import type { AppDeps } from '../app/deps.js';
import type { JobHandler } from '../ports/scheduler.js';

export interface JobLog {
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * The refresh job: `{ id: feedId }` → the refresh use case → the time of the next run. The same
 * handler is driven by the local scheduler and by BullMQ.
 */
export function refreshFeedHandler(deps: RefreshDeps & Pick<AppDeps, 'metrics'>, log: JobLog): JobHandler {
  return async ({ id: feedId }) => {
    const started = performance.now();
    const outcome = await refreshFeed(deps, feedId);
    if (!outcome) return null;
    deps.metrics.refresh({
      outcome: outcome.error ?? outcome.status,
      host: new URL(outcome.fetchUrl).hostname,
      seconds: (performance.now() - started) / 1000,
      fresh: outcome.fresh.length,
      changed: outcome.changed.length,
    });
    if (outcome.health) deps.metrics.feedState(feedId, outcome.health.state, outcome.nextRunAt);
    log.info(
      { feedId, status: outcome.status, error: outcome.error, fresh: outcome.fresh.length, changed: outcome.changed.length, next: outcome.nextRunAt.toISOString() },
      'feed refreshed',
    );
    return outcome.nextRunAt;
  };
}
