import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { Feed, FeedSettings, ItemSort } from '../domain/feed.js';
import { clearedFailures } from '../domain/feed-lifecycle.js';
import { feedHealth } from '../domain/feed-health.js';
import { checkLength, feedFieldLimits } from '../domain/field-limits.js';
import { patchKeepBlock } from '../domain/keep-block.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';
import { expectedMessage } from '../domain/field-message.js';
import { parseFullTextRules } from '../domain/full-text.js';
import { fillFullText } from './article-jobs.js';
import type { RenderMode } from '../domain/render-mode.js';

/**
 * PATCH body: each field optional; `customAuthor: null` resets it to the source's authors,
 * `minIntervalSeconds: null` to the global floor.
 */
export interface FeedSettingsPatch {
  customAuthor?: string | null;
  sort?: ItemSort;
  paused?: boolean;
  minIntervalSeconds?: number | null;
  /** Keep/block filters as the request sent them (checked here): see `patchKeepBlock`. */
  filters?: unknown;
  fullText?: boolean;
  /** As the request sent them (checked here): see `parseFullTextRules`; null clears them. */
  fullTextRules?: unknown;
  render?: RenderMode;
}

/** The longest `min_interval` a feed may ask for: a week, as FEEDMILL_POLL_MAX_INTERVAL allows. */
export const maxMinIntervalSeconds = 604_800;

type SettingsDeps = Pick<AppDeps, 'feeds' | 'items' | 'clock' | 'scheduler' | 'articleScheduler' | 'metrics' | 'settings'>;

/** GET /v1/feeds/:id/settings. */
export async function getFeedSettings(deps: Pick<AppDeps, 'feeds'>, principal: Principal, feedId: string): Promise<FeedSettings> {
  return (await findFeed(deps, principal, feedId)).settings;
}

function checkMinInterval(deps: Pick<AppDeps, 'settings'>, seconds: number | null | undefined): void {
  if (seconds === null || seconds === undefined) return;
  const floor = deps.settings.poll.minSeconds;
  if (!Number.isInteger(seconds) || seconds < floor || seconds > maxMinIntervalSeconds) {
    throw new FeedmillError(
      'validation_failed',
      expectedMessage(
        'min_interval',
        `a whole number of seconds from the global floor FEEDMILL_POLL_MIN_INTERVAL (${floor}) to ${maxMinIntervalSeconds}`,
        { value: seconds },
      ),
    );
  }
}

/**
 * Pausing stops polling at once (the planned run is cancelled); resuming (`paused: false` sent,
 * whether the feed was paused or disabled) also lifts a disable, forgets the run of failures that
 * caused it, and fetches again now. Other changes leave a disabled feed disabled.
 */
async function applyPolling(deps: SettingsDeps, before: Feed, after: Feed, patch: FeedSettingsPatch): Promise<void> {
  const now = deps.clock.now();
  if (after.settings.paused && !before.settings.paused) {
    await deps.scheduler.cancel(after.id);
    const { nextFetchAt: _cancelled, ...fetch } = after.fetch;
    await deps.feeds.saveFetchState(after.id, fetch, after.fetchUrl);
    deps.metrics.feedState(after.id, 'paused', new Date(now.getTime() + deps.settings.poll.maxSeconds * 1000));
    return;
  }
  const resumed = patch.paused === false && (before.settings.paused || before.fetch.disabled !== undefined);
  if (!resumed) return;
  const fetch = { ...clearedFailures(after.fetch), nextFetchAt: now.toISOString() };
  await deps.feeds.saveFetchState(after.id, fetch, after.fetchUrl);
  await deps.scheduler.schedule(after.id, now);
  deps.metrics.feedState(after.id, feedHealth({ settings: after.settings, fetch }).state, now);
}

/** PATCH /v1/feeds/:id/settings: fields not sent keep their value. */
export async function updateFeedSettings(
  deps: SettingsDeps,
  principal: Principal,
  feedId: string,
  patch: FeedSettingsPatch,
): Promise<FeedSettings> {
  checkLength('customAuthor', patch.customAuthor ?? undefined, feedFieldLimits.customAuthor);
  checkMinInterval(deps, patch.minIntervalSeconds);
  const feed = await findFeed(deps, principal, feedId);
  const customAuthor = patch.customAuthor === undefined ? feed.settings.customAuthor : patch.customAuthor?.trim() || null;
  const next: FeedSettings = {
    customAuthor,
    sort: patch.sort ?? feed.settings.sort,
    paused: patch.paused ?? feed.settings.paused,
    minIntervalSeconds: patch.minIntervalSeconds === undefined ? feed.settings.minIntervalSeconds : patch.minIntervalSeconds,
    filters: patchKeepBlock(feed.settings.filters, patch.filters),
    fullText: patch.fullText ?? feed.settings.fullText,
    fullTextRules: patch.fullTextRules === undefined ? feed.settings.fullTextRules : parseFullTextRules(patch.fullTextRules),
    render: patch.render ?? feed.settings.render,
  };
  const updated = await deps.feeds.updateSettings(principal.accountId, feedId, next, deps.clock.now().toISOString());
  if (!updated) throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` was deleted`);
  await applyPolling(deps, feed, updated, patch);
  // Turning full text off needs nothing: items show their teasers again as they are read.
  if (updated.settings.fullText && !feed.settings.fullText) await fillFullText(deps, updated);
  return updated.settings;
}
