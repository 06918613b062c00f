import type { Principal } from '../domain/api-key.js';
import type { Feed, FeedPatch } from '../domain/feed.js';
import { checkLength, feedFieldLimits } from '../domain/field-limits.js';
import { userIcon } from '../domain/safe-url.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';

/** PATCH /v1/feeds/:id: title, description, icon; the response has no items (spec). */
export async function updateFeed(
  deps: Pick<AppDeps, 'feeds' | 'clock'>,
  principal: Principal,
  feedId: string,
  patch: FeedPatch,
): Promise<Feed> {
  checkLength('title', patch.title, feedFieldLimits.title, 1);
  checkLength('description', patch.description, feedFieldLimits.description);
  checkLength('icon', patch.icon, feedFieldLimits.icon);
  const checked = patch.icon === undefined ? patch : { ...patch, icon: userIcon(patch.icon) };
  await findFeed(deps, principal, feedId);
  const updated = await deps.feeds.update(principal.accountId, feedId, checked, deps.clock.now().toISOString());
  // Deleted between the two calls: report it the same way a later GET would.
  return updated ?? (await findFeed(deps, principal, feedId));
}
