import type { Feed, FetchState } from '../domain/feed.js';
import { feedHealth, type FeedHealth } from '../domain/feed-health.js';
import type { FeedmillError} from '../domain/errors.js';
import { isFeedmillError } from '../domain/errors.js';
import { diffItems, type ItemDiff } from '../domain/item-diff.js';
import type { ParsedItem } from '../domain/item.js';
import { afterFailure, clearedFailures, isPolled } from '../domain/feed-lifecycle.js';
import { feedPollPolicy, nextPollAt, type PollSignals } from '../domain/poll-policy.js';
import type { StoredItem } from '../domain/stored-item.js';
import type { AppDeps } from './deps.js';
import { fetchDocument } from './fetch-document.js';
import { feedEvent, publishFeedEvent } from './feed-events.js';
import { hintSignals, retryAfterSeconds } from './poll-signals.js';

export type RefreshDeps = Pick<AppDeps, 'feeds' | 'items' | 'outbox' | 'bus' | 'deliveryScheduler' | 'fetcher' | 'parser' | 'clock' | 'random' | 'settings'>;

export interface RefreshOutcome {
  /** `superseded`: another refresh of the feed committed first (see storeItems); this one wrote nothing. */
  status: 'changed' | 'unchanged' | 'not_modified' | 'failed' | 'superseded';
  fresh: StoredItem[];
  changed: StoredItem[];
  /** The error code when `failed`. */
  error?: string;
  /** The failure when `failed`, as the feed's status shows it. */
  errorMessage?: string;
  /** When the feed is due again; null when it is not polled (paused, or disabled by this refresh). */
  nextRunAt: Date | null;
  /** Where the document was fetched from (metrics count fetches per host). */
  fetchUrl: string;
  /** The feed's health as this refresh left it; absent when `superseded` (the other refresh set it). */
  health?: FeedHealth;
}

/**
 * Stores the items of a parsed document that are new or changed; idempotent (upserts by stable
 * key). With `announce`, the change is also announced by one `feed_update` event, stored in the
 * same conditional write as its items and published after it (the first fetch of a new feed is a
 * baseline and announces nothing).
 *
 * The write is conditional on the version of the feed's items read for the diff: a refresh that
 * stalled past its job lock, while another worker took the job over and committed, is refused by
 * the store and returns `superseded` having written nothing — so two refreshes that both saw an
 * item as new never announce it under two event ids.
 */
export async function storeItems(
  deps: Pick<AppDeps, 'items' | 'outbox' | 'bus' | 'deliveryScheduler' | 'clock' | 'settings'>,
  feed: Feed,
  items: readonly ParsedItem[],
  now: Date,
  announce: boolean,
): Promise<ItemDiff | 'superseded'> {
  const snapshot = await deps.items.known(feed.id);
  const diff = diffItems(feed.id, items, snapshot.items, now.toISOString());
  if (diff.fresh.length + diff.changed.length === 0) return diff;
  const event = announce ? await feedEvent(deps, feed, diff, now) : undefined;
  if (!(await deps.items.commit(feed.id, snapshot.version, [...diff.fresh, ...diff.changed], event))) return 'superseded';
  if (event) await publishFeedEvent(deps, event);
  return diff;
}

const jitter = (deps: Pick<AppDeps, 'random'>): number => (deps.random(1)[0] ?? 0) / 256;

/**
 * Computes and records when to come back, given what this refresh saw; the scheduler keeps the date.
 * Returns the date and the fetch state as stored. A feed that is not polled (paused, or disabled)
 * gets no date: nothing is planned until it is resumed.
 */
export async function planNextRefresh(
  deps: Pick<AppDeps, 'feeds' | 'random' | 'settings'>,
  feed: Feed,
  state: FetchState,
  signals: Omit<PollSignals, 'jitter' | 'unchangedStreak' | 'errorCount'>,
  now: Date,
  fetchUrl: string,
): Promise<{ next: Date | null; state: FetchState }> {
  if (!isPolled({ settings: feed.settings, fetch: state })) {
    const { nextFetchAt: _unplanned, ...unplanned } = state;
    await deps.feeds.saveFetchState(feed.id, unplanned, fetchUrl);
    return { next: null, state: unplanned };
  }
  const next = nextPollAt(now, feedPollPolicy(deps.settings.poll, feed.settings.minIntervalSeconds), {
    ...signals,
    unchangedStreak: state.unchangedStreak,
    errorCount: state.errorCount,
    jitter: jitter(deps),
  });
  const planned: FetchState = { ...state, nextFetchAt: next.toISOString() };
  await deps.feeds.saveFetchState(feed.id, planned, fetchUrl);
  return { next, state: planned };
}

/** What a fetch that reached the source records, whatever it found: it ends a run of failures and a disable. */
const succeeded = (state: FetchState, now: Date): FetchState => ({
  ...clearedFailures(state),
  lastSuccessAt: now.toISOString(),
  lastError: null,
  errorCount: 0,
});

/** A refresh on demand (POST /v1/feeds/:id/refresh) also fetches a paused or disabled feed. */
export interface RefreshOptions {
  onDemand?: boolean;
}

/**
 * The feed actor's one message: conditional GET → parse in the pool → diff against stored items →
 * persist → plan the next refresh. Called by the job handler; never throws for a source
 * failure (that is an outcome), only for our own (store) failures, which the scheduler retries.
 */
export async function refreshFeed(deps: RefreshDeps, feedId: string, options: RefreshOptions = {}): Promise<RefreshOutcome | null> {
  const feed = await deps.feeds.getById(feedId);
  // A job left from before the feed was paused or disabled ends here: nothing is fetched or planned.
  if (!feed || (!options.onDemand && !isPolled(feed))) return null;
  const now = deps.clock.now();
  const base: FetchState = { ...feed.fetch, lastFetchedAt: now.toISOString() };
  try {
    const document = await fetchDocument(deps, feed.fetchUrl, feed.fetch, feed.fetch.reader);
    const hints = hintSignals(document.fetched, now);
    const fetchUrl = document.fetched.url;
    if (document.kind !== 'parsed') {
      const status = document.kind === 'not_modified' ? 'not_modified' : 'unchanged';
      const state: FetchState = {
        ...succeeded(base, now),
        ...(document.kind === 'same_body' ? validators(document.fetched) : {}),
        lastStatus: status,
        unchangedStreak: feed.fetch.unchangedStreak + 1,
      };
      const planned = await planNextRefresh(deps, feed, state, { outcome: 'unchanged', ...hints }, now, fetchUrl);
      return { status, fresh: [], changed: [], nextRunAt: planned.next, fetchUrl, health: feedHealth({ settings: feed.settings, fetch: planned.state }) };
    }
    const stored = await storeItems(deps, feed, document.parsed.items, now, true);
    if (stored === 'superseded') return superseded(deps, feed, now);
    const { fresh, changed } = stored;
    const news = fresh.length + changed.length > 0;
    const outcome = news ? 'changed' : 'unchanged';
    const state: FetchState = {
      ...succeeded(base, now),
      ...validators(document.fetched),
      bodyHash: document.bodyHash,
      lastStatus: outcome,
      unchangedStreak: news ? 0 : feed.fetch.unchangedStreak + 1,
    };
    const planned = await planNextRefresh(deps, feed, state, { outcome, ...hints }, now, fetchUrl);
    return { status: outcome, fresh, changed, nextRunAt: planned.next, fetchUrl, health: feedHealth({ settings: feed.settings, fetch: planned.state }) };
  } catch (error) {
    if (!isFeedmillError(error)) throw error;
    return failed(deps, feed, base, error, now);
  }
}

/**
 * The refresh that committed first also planned the next run: this one keeps that plan and writes
 * no fetch state over it.
 */
async function superseded(deps: RefreshDeps, feed: Feed, now: Date): Promise<RefreshOutcome> {
  const current = await deps.feeds.getById(feed.id);
  const planned = current?.fetch.nextFetchAt;
  const nextRunAt = current && !isPolled(current) ? null : planned ? new Date(planned) : new Date(now.getTime() + deps.settings.poll.minSeconds * 1000);
  return { status: 'superseded', fresh: [], changed: [], nextRunAt, fetchUrl: feed.fetchUrl };
}

function validators(fetched: { etag?: string; lastModified?: string }): Pick<FetchState, 'etag' | 'lastModified'> {
  return { etag: fetched.etag, lastModified: fetched.lastModified };
}

async function failed(deps: RefreshDeps, feed: Feed, base: FetchState, error: FeedmillError, now: Date): Promise<RefreshOutcome> {
  const failing = afterFailure(
    { ...base, lastStatus: error.code, lastError: { code: error.code, message: error.message }, errorCount: feed.fetch.errorCount + 1 },
    now,
    deps.settings.feedDisableAfterSeconds,
  );
  // The fetcher says what failed; what happens next is ours to say (`next_fetch_at` says when).
  const next = isPolled({ settings: feed.settings, fetch: failing }) ? 'feedmill will retry later' : 'feedmill will not retry until the feed is resumed';
  const state: FetchState = { ...failing, lastError: { code: error.code, message: `${error.message}; ${next}` } };
  const retryAfter = retryAfterSeconds(error.details.retryAfter, now);
  const planned = await planNextRefresh(deps, feed, state, { outcome: 'error', retryAfterSeconds: retryAfter }, now, feed.fetchUrl);
  return {
    status: 'failed',
    fresh: [],
    changed: [],
    error: error.code,
    errorMessage: error.message,
    nextRunAt: planned.next,
    fetchUrl: feed.fetchUrl,
    health: feedHealth({ settings: feed.settings, fetch: planned.state }),
  };
}
