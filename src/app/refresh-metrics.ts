import type { AppDeps } from './deps.js';
import type { RefreshOutcome } from './refresh-pipeline.js';

/**
 * Until when this process counts the feed's state in /metrics: its next fetch, or, for a feed no
 * longer polled (paused, disabled), one ceiling from now, so a feed resumed and fetched elsewhere
 * is not counted twice for long.
 */
export const countedUntil = (deps: Pick<AppDeps, 'clock' | 'settings'>, next: Date | null): Date =>
  next ?? new Date(deps.clock.now().getTime() + deps.settings.poll.maxSeconds * 1000);

/** Counts one refresh, scheduled or on demand: its outcome per source host, and the state it left. */
export function recordRefresh(
  deps: Pick<AppDeps, 'metrics' | 'clock' | 'settings'>,
  feedId: string,
  outcome: RefreshOutcome,
  seconds: number,
): void {
  deps.metrics.refresh({
    outcome: outcome.error ?? outcome.status,
    host: new URL(outcome.fetchUrl).hostname,
    seconds,
    fresh: outcome.fresh.length,
    changed: outcome.changed.length,
  });
  if (outcome.health) deps.metrics.feedState(feedId, outcome.health.state, countedUntil(deps, outcome.nextRunAt));
}
