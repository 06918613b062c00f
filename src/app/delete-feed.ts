import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { AppDeps } from './deps.js';
import { cancelRefresh } from './refresh-queue.js';

/** Spec "Deletion result". */
export interface DeletionResult {
  id: string;
  deleted: true;
}

/** DELETE /v1/feeds/:id; a second delete says the feed was already deleted (spec Errors rule 1). */
export async function deleteFeed(
  deps: Pick<AppDeps, 'feeds' | 'bundles' | 'scheduler' | 'renderScheduler' | 'clock' | 'metrics'>,
  principal: Principal,
  feedId: string,
): Promise<DeletionResult> {
  const lookup = await deps.feeds.get(principal.accountId, feedId);
  if (lookup.state === 'deleted') {
    throw new FeedmillError('feed_already_deleted', `Feed \`${feedId}\` has already been deleted`);
  }
  const now = deps.clock.now().toISOString();
  if (lookup.state === 'missing' || !(await deps.feeds.markDeleted(principal.accountId, feedId, now))) {
    throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` does not exist in this account; list your feeds with GET /v1/feeds`);
  }
  // Spec "States and transitions": the feed is removed from every bundle that contained it.
  await deps.bundles.removeFeedEverywhere(principal.accountId, feedId, now);
  await cancelRefresh(deps, feedId);
  deps.metrics.feedRemoved(feedId);
  return { id: feedId, deleted: true };
}
