import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedSettings, ItemSort } from '../domain/feed.js';
import { checkLength, feedFieldLimits } from '../domain/field-limits.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';

/** PATCH body: each field optional; `customAuthor: null` resets it to the source's authors. */
export interface FeedSettingsPatch {
  customAuthor?: string | null;
  sort?: ItemSort;
}

/** GET /v1/feeds/:id/settings. */
export async function getFeedSettings(deps: Pick<AppDeps, 'feeds'>, principal: Principal, feedId: string): Promise<FeedSettings> {
  return (await findFeed(deps, principal, feedId)).settings;
}

/** PATCH /v1/feeds/:id/settings: fields not sent keep their value. */
export async function updateFeedSettings(
  deps: Pick<AppDeps, 'feeds' | 'clock'>,
  principal: Principal,
  feedId: string,
  patch: FeedSettingsPatch,
): Promise<FeedSettings> {
  checkLength('customAuthor', patch.customAuthor ?? undefined, feedFieldLimits.customAuthor);
  const feed = await findFeed(deps, principal, feedId);
  const customAuthor = patch.customAuthor === undefined ? feed.settings.customAuthor : patch.customAuthor?.trim() || null;
  const next: FeedSettings = { customAuthor, sort: patch.sort ?? feed.settings.sort };
  const updated = await deps.feeds.updateSettings(principal.accountId, feedId, next, deps.clock.now().toISOString());
  if (!updated) throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` was deleted`);
  return updated.settings;
}
