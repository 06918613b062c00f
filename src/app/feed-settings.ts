import type { Principal } from '../domain/api-key.js';
import { FeedmillError, fieldRefusal } from '../domain/errors.js';
import type { Feed, FeedSettings, ItemSort } from '../domain/feed.js';
import { clearedFailures, isPolled } from '../domain/feed-lifecycle.js';
import { feedHealth } from '../domain/feed-health.js';
import { checkLength, feedFieldLimits } from '../domain/field-limits.js';
import { patchKeepBlock } from '../domain/keep-block.js';
import type { AppDeps } from './deps.js';
import { cancelRefresh, scheduleRefresh } from './refresh-queue.js';
import { findFeed } from './find-feed.js';
import { expectedMessage } from '../domain/field-message.js';
import { parseFullTextRules } from '../domain/full-text.js';
import { fillFullText } from './article-jobs.js';
import { parseFetchOptions } from '../domain/fetch-options.js';
import { accessFor, openFeedAccess, sealFetchOptions } from './fetch-access.js';
import type { ReadOptions } from './read-options.js';
import { parsePageSelectors, type PageSelectors } from '../domain/page-selectors.js';
import { isKeywordSourceUrl } from '../domain/keyword-source.js';
import { readSelectedPage, resolveSource, type ResolvedSource } from './discover-feeds.js';
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
  /**
   * The source's fetch options as the request sent them (checked here: `parseFetchOptions`); they
   * replace the stored ones whole (the secrets are never read back to merge with), and null removes them.
   */
  fetch?: unknown;
  /** As the request sent them (checked here): see `parsePageSelectors`; null clears them. */
  selectors?: unknown;
  /** `auto`, `always` or `never` (docs/rendering.md). */
  render?: RenderMode;
}

/** The longest `min_interval` a feed may ask for: a week, as FEEDMILL_POLL_MAX_INTERVAL allows. */
export const maxMinIntervalSeconds = 604_800;

type SettingsDeps = Pick<
  AppDeps,
  'feeds' | 'items' | 'clock' | 'scheduler' | 'renderScheduler' | 'articleScheduler' | 'metrics' | 'settings' | 'fetcher' | 'parser'
>;

/** GET /v1/feeds/:id/settings. */
export async function getFeedSettings(deps: Pick<AppDeps, 'feeds'>, principal: Principal, feedId: string): Promise<FeedSettings> {
  return (await findFeed(deps, principal, feedId)).settings;
}

function checkMinInterval(deps: Pick<AppDeps, 'settings'>, seconds: number | null | undefined): void {
  if (seconds === null || seconds === undefined) return;
  const floor = deps.settings.poll.minSeconds;
  if (!Number.isInteger(seconds) || seconds < floor || seconds > maxMinIntervalSeconds) {
    throw fieldRefusal(
      'min_interval',
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
    await cancelRefresh(deps, after.id);
    const { nextFetchAt: _cancelled, ...fetch } = after.fetch;
    await deps.feeds.saveFetchState(after.id, fetch, after.fetchUrl);
    deps.metrics.feedState(after.id, 'paused', new Date(now.getTime() + deps.settings.poll.maxSeconds * 1000));
    return;
  }
  const resumed = patch.paused === false && (before.settings.paused || before.fetch.disabled !== undefined);
  if (!resumed) return;
  const fetch = { ...clearedFailures(after.fetch), nextFetchAt: now.toISOString() };
  await deps.feeds.saveFetchState(after.id, fetch, after.fetchUrl);
  await scheduleRefresh(deps, { ...after, fetch }, now);
  deps.metrics.feedState(after.id, feedHealth({ settings: after.settings, fetch }).state, now);
}

/** `selectors` as sent: null clears them; a keyword feed has no page to select in. */
function checkSelectors(deps: Pick<AppDeps, 'settings'>, feed: Feed, value: unknown): PageSelectors | null {
  if (value === null) return null;
  if (isKeywordSourceUrl(deps.settings.publicUrl, feed.sourceUrl)) {
    throw new FeedmillError(
      'validation_failed',
      expectedMessage('selectors', 'null on a keyword feed: selectors read a page given by its `url`', { value }),
    );
  }
  return parsePageSelectors(value);
}

const sameSelectors = (a: PageSelectors | null, b: PageSelectors | null): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * When the selectors change, how the feed reads its source from now on, read once now as a create
 * would: new selectors read the page at `source_url` with them; clearing them finds the source again
 * (its platform's or advertised feed, else the page's own items). Undefined when they do not change.
 * @throws FeedmillError the source's failure (`no_items_found` when the selectors name nothing)
 */
async function readingFor(
  deps: SettingsDeps,
  feed: Feed,
  selectors: PageSelectors | null,
  options: ReadOptions,
): Promise<ResolvedSource | undefined> {
  if (sameSelectors(selectors, feed.settings.selectors)) return undefined;
  return selectors ? readSelectedPage(deps, feed.sourceUrl, selectors, options) : resolveSource(deps, feed.sourceUrl, options);
}

/**
 * The new reading replaces the old: its address, reader and extractor, and no validator or body
 * hash of the old one (the same page now reads differently). A polled feed is fetched at once.
 */
async function applyReading(deps: SettingsDeps, feed: Feed, source: ResolvedSource): Promise<void> {
  const {
    etag: _etag,
    lastModified: _lastModified,
    bodyHash: _bodyHash,
    extractor: _extractor,
    followed: _followed,
    rendered: _rendered,
    ...kept
  } = feed.fetch;
  const now = deps.clock.now();
  const fetch = {
    ...kept,
    reader: source.reader,
    ...(source.extractor ? { extractor: source.extractor } : {}),
    ...(source.followed ? { followed: source.followed } : {}),
    ...(source.rendered ? { rendered: true } : {}),
    ...(isPolled(feed) ? { nextFetchAt: now.toISOString() } : {}),
  };
  await deps.feeds.saveFetchState(feed.id, fetch, source.fetched.url);
  if (isPolled(feed)) await scheduleRefresh(deps, { ...feed, fetch }, now);
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
  const fetchOptions = patch.fetch === undefined ? undefined : parseFetchOptions(patch.fetch);
  const feed = await findFeed(deps, principal, feedId);
  const selectors = patch.selectors === undefined ? feed.settings.selectors : checkSelectors(deps, feed, patch.selectors);
  // Read before anything is written: selectors that name nothing change nothing (402).
  // With the fetch options this same request sets, if it sets any.
  const access = fetchOptions === undefined ? openFeedAccess(deps, feed) : accessFor(feed.sourceUrl, fetchOptions);
  const reading = await readingFor(deps, feed, selectors, { render: patch.render ?? feed.settings.render, ...(access ? { access } : {}) });
  const customAuthor = patch.customAuthor === undefined ? feed.settings.customAuthor : patch.customAuthor?.trim() || null;
  const next: FeedSettings = {
    customAuthor,
    sort: patch.sort ?? feed.settings.sort,
    paused: patch.paused ?? feed.settings.paused,
    minIntervalSeconds: patch.minIntervalSeconds === undefined ? feed.settings.minIntervalSeconds : patch.minIntervalSeconds,
    filters: patchKeepBlock(feed.settings.filters, patch.filters),
    fullText: patch.fullText ?? feed.settings.fullText,
    fullTextRules: patch.fullTextRules === undefined ? feed.settings.fullTextRules : parseFullTextRules(patch.fullTextRules),
    fetchOptions: fetchOptions === undefined ? feed.settings.fetchOptions : sealFetchOptions(deps, fetchOptions),
    selectors,
    render: patch.render ?? feed.settings.render,
  };
  const updated = await deps.feeds.updateSettings(principal.accountId, feedId, next, deps.clock.now().toISOString());
  if (!updated) throw new FeedmillError('feed_not_found', `Feed \`${feedId}\` was deleted`);
  await applyPolling(deps, feed, updated, patch);
  // After polling's own write, so the new reading starts from the state that left.
  const current = reading ? await deps.feeds.getById(feedId) : undefined;
  if (reading && current) await applyReading(deps, current, reading);
  // Turning full text off needs nothing: items show their teasers again as they are read.
  if (updated.settings.fullText && !feed.settings.fullText) await fillFullText(deps, updated);
  return updated.settings;
}
