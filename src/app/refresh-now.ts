import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { Feed, FeedError } from '../domain/feed.js';
import type { AppDeps } from './deps.js';
import { scheduleRefresh } from './refresh-queue.js';
import { findFeed } from './find-feed.js';
import { refreshFeed } from './refresh-feed.js';
import type { RefreshDeps, RefreshOutcome } from './refresh-pipeline.js';
import { recordRefresh } from './refresh-metrics.js';

/**
 * A feed is fetched on demand at most once per this many seconds after any fetch of it, scheduled
 * or not: refresh buttons pressed repeatedly cost its source one request (docs/api.md, "Pausing, refreshing and polling").
 */
export const refreshGapSeconds = 30;

export interface RefreshResult {
  outcome: RefreshOutcome['status'];
  itemsNew: number;
  itemsChanged: number;
  /** Why the fetch failed; null unless `outcome` is `failed`. */
  error: FeedError | null;
  /** The feed as the refresh left it (its status shows the next planned fetch). */
  feed: Feed;
}

/**
 * POST /v1/feeds/:id/refresh: fetches the feed now, paused or disabled alike, and answers with what
 * it found. The next scheduled run is planned as after any refresh; a disabled feed whose fetch
 * succeeds is active again and polled on schedule, a paused feed stays paused.
 */
export async function refreshNow(
  deps: RefreshDeps & Pick<AppDeps, 'scheduler' | 'renderScheduler' | 'metrics'>,
  principal: Principal,
  feedId: string,
): Promise<RefreshResult> {
  const feed = await findFeed(deps, principal, feedId);
  const now = deps.clock.now();
  const last = feed.fetch.lastFetchedAt ? Date.parse(feed.fetch.lastFetchedAt) : Number.NaN;
  const wait = Math.ceil(refreshGapSeconds - (now.getTime() - last) / 1000);
  if (wait > 0) {
    throw new FeedmillError(
      'refresh_throttled',
      `Feed \`${feedId}\` was fetched ${refreshGapSeconds - wait} s ago; a feed can be refreshed on demand once per ${refreshGapSeconds} s, try again in ${wait} s`,
      { retryAfter: wait },
    );
  }
  const started = performance.now();
  const outcome = await refreshFeed(deps, feedId, { onDemand: true });
  if (!outcome) throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` was deleted`);
  recordRefresh(deps, feedId, outcome, (performance.now() - started) / 1000);
  if (outcome.nextRunAt) await scheduleRefresh(deps, { ...feed, fetch: outcome.fetchState ?? feed.fetch }, outcome.nextRunAt);
  return {
    outcome: outcome.status,
    itemsNew: outcome.fresh.length,
    itemsChanged: outcome.changed.length,
    error: outcome.error ? { code: outcome.error, message: outcome.errorMessage ?? outcome.error } : null,
    feed: (await deps.feeds.getById(feedId)) ?? feed,
  };
}
