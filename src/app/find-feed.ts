import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { Feed } from '../domain/feed.js';
import type { AppDeps } from './deps.js';

/** The caller's live feed, or `feed_not_found` (another account's feed is not found, never forbidden). */
export async function findFeed(deps: Pick<AppDeps, 'feeds'>, principal: Principal, feedId: string): Promise<Feed> {
  const lookup = await deps.feeds.get(principal.accountId, feedId);
  if (lookup.state === 'present') return lookup.feed;
  const why = lookup.state === 'deleted' ? 'was deleted' : 'does not exist in this account';
  throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` ${why}; list your feeds with GET /v1/feeds`);
}
