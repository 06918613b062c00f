import type { Feed, FetchState } from '../domain/feed.js';
import { feedHealth, type FeedHealth } from '../domain/feed-health.js';
import type { FeedmillError } from '../domain/errors.js';
import { diffItems, type ItemDiff } from '../domain/item-diff.js';
import type { ParsedItem } from '../domain/item.js';
import { afterFailure, clearedFailures, isPolled } from '../domain/feed-lifecycle.js';
import { jitter } from '../domain/jitter.js';
import { feedPollPolicy, nextPollAt, type PollSignals } from '../domain/poll-policy.js';
import type { StoredItem } from '../domain/stored-item.js';
import { recordWaits, scheduleArticles } from './article-jobs.js';
import type { AppDeps } from './deps.js';
import type { FetchedDocument } from './fetch-document.js';
import { feedEvent, publishFeedEvent } from './feed-events.js';
import { hintSignals, retryAfterSeconds } from './poll-signals.js';

// The one refresh pipeline: fetch → parse (fetch-document.ts) → identify → diff → store → announce
// → plan (here). A refresh runs it over the document fetched for a stored feed; creating a feed runs
// it once over the document that finding the source read (create-feed.ts), as the feed's first run.

export type RefreshDeps = Pick<
  AppDeps,
  | 'feeds'
  | 'items'
  | 'outbox'
  | 'bus'
  | 'deliveryScheduler'
  | 'articleScheduler'
  | 'fetcher'
  | 'renderer'
  | 'parser'
  | 'clock'
  | 'random'
  | 'settings'
>;

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
  /** The feed's fetch state as this refresh stored it; absent when `superseded` (the other refresh set it). */
  fetchState?: FetchState;
  /** The feed's health as this refresh left it; absent when `superseded`. */
  health?: FeedHealth;
}

/**
 * `refresh`: a run of a stored feed, which announces what is new or changed. `first`: the run that
 * creates a feed, whose items are a baseline announced to no one; it counts as a change (from
 * nothing) even when the source has no items yet.
 */
export type PipelineRun = 'refresh' | 'first';

/**
 * Stores the items of a parsed document that are new, changed or re-read (item-diff.ts); idempotent (upserts by stable
 * key). With `announce`, the change is also announced by one `feed_update` event, stored in the
 * same conditional write as its items and published after it.
 *
 * The write is conditional on the version of the feed's items read for the diff: a refresh that
 * stalled past its job lock, while another worker took the job over and committed, is refused by
 * the store and returns `superseded` having written nothing — so two refreshes that both saw an
 * item as new never announce it under two event ids.
 */
export async function storeItems(
  deps: Pick<AppDeps, 'items' | 'outbox' | 'bus' | 'deliveryScheduler' | 'articleScheduler' | 'clock' | 'settings'>,
  feed: Feed,
  items: readonly ParsedItem[],
  now: Date,
  announce: boolean,
): Promise<ItemDiff | 'superseded'> {
  const snapshot = await deps.items.known(feed.id);
  const diff = diffItems(feed.id, items, snapshot.items, now.toISOString());
  if (diff.fresh.length + diff.changed.length + diff.reread.length === 0) return diff;
  const waits = announce && feed.settings.fullText ? await articleWaits(deps, feed, diff) : { fresh: [], moved: [], announced: diff };
  // Recorded before the commit, so a process that dies after it leaves them for resumeArticles.
  await recordWaits(deps, feed.id, waits.fresh, false, now);
  await recordWaits(deps, feed.id, waits.moved, true, now);
  const event = announce ? await feedEvent(deps, feed, waits.announced, now) : undefined;
  if (!(await deps.items.commit(feed.id, snapshot.version, [...diff.fresh, ...diff.changed, ...diff.reread], event))) return 'superseded';
  if (event) await publishFeedEvent(deps, event);
  await scheduleArticles(deps, feed.id, [...waits.fresh, ...waits.moved], now);
  return diff;
}

/**
 * Full text: which items of a diff wait for their articles. New items, up to FEEDMILL_FULL_TEXT_PER_REFRESH,
 * are announced only once their article is in (or failed: jobs/fetch-article.ts); the rest are
 * announced now with their teasers (`skipped`). A changed item whose address changed fetches the
 * new page, and has its article replaced silently. A changed item keeps its stored article.
 */
async function articleWaits(
  deps: Pick<AppDeps, 'items' | 'settings'>,
  feed: Feed,
  diff: ItemDiff,
): Promise<{ fresh: StoredItem[]; moved: StoredItem[]; announced: ItemDiff }> {
  const fresh = diff.fresh.slice(0, deps.settings.fullText.perRefresh);
  const before = new Map(
    (
      await deps.items.getMany(
        feed.id,
        diff.changed.map((item) => item.key),
      )
    ).map((item) => [item.key, item]),
  );
  const changed = diff.changed.map((item) => {
    const article = before.get(item.key)?.article;
    return article ? { ...item, article } : item;
  });
  const moved = changed.filter((item) => item.article !== undefined && item.article.url !== item.url);
  return { fresh, moved, announced: { fresh: diff.fresh.slice(fresh.length), changed, reread: diff.reread } };
}

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
    jitter: jitter(deps.random),
  });
  const planned: FetchState = { ...state, nextFetchAt: next.toISOString() };
  await deps.feeds.saveFetchState(feed.id, planned, fetchUrl);
  return { next, state: planned };
}

/** The state every run starts from: the feed's, fetched now. */
const fetchedNow = (feed: Feed, now: Date): FetchState => ({ ...feed.fetch, lastFetchedAt: now.toISOString() });

/** What a fetch that reached the source records, whatever it found: it ends a run of failures and a disable. */
const succeeded = (state: FetchState, now: Date): FetchState => ({
  ...clearedFailures(state),
  lastSuccessAt: now.toISOString(),
  lastError: null,
  errorCount: 0,
});

function validators(fetched: { etag?: string; lastModified?: string }): Pick<FetchState, 'etag' | 'lastModified'> {
  return { etag: fetched.etag, lastModified: fetched.lastModified };
}

type Planned = Awaited<ReturnType<typeof planNextRefresh>>;
/** What a run reports of its items: the new and the changed, which it announced; re-read items are not news. */
type Announced = Pick<ItemDiff, 'fresh' | 'changed'>;

/** The outcome of a run that planned the next one. */
const ran = (feed: Feed, status: RefreshOutcome['status'], diff: Announced, planned: Planned, fetchUrl: string): RefreshOutcome => ({
  status,
  fresh: diff.fresh,
  changed: diff.changed,
  nextRunAt: planned.next,
  fetchUrl,
  fetchState: planned.state,
  health: feedHealth({ settings: feed.settings, fetch: planned.state }),
});

/**
 * The pipeline after the fetch, over the document the fetch step read for `feed` at `now`: identify
 * the items, diff them against the stored ones, store and announce what is new or changed (see
 * storeItems), then record the fetch state and plan the next run. A 304, or a body the feed read
 * last time, stores nothing and counts as unchanged.
 */
export async function runPipeline(
  deps: RefreshDeps,
  feed: Feed,
  document: FetchedDocument,
  now: Date,
  run: PipelineRun = 'refresh',
): Promise<RefreshOutcome> {
  const base = fetchedNow(feed, now);
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
    return ran(feed, status, { fresh: [], changed: [] }, planned, fetchUrl);
  }
  const stored = await storeItems(deps, feed, document.parsed.items, now, run === 'refresh');
  if (stored === 'superseded') return superseded(deps, feed, now);
  const news = run === 'first' || stored.fresh.length + stored.changed.length > 0;
  const outcome = news ? 'changed' : 'unchanged';
  const state: FetchState = {
    ...succeeded(base, now),
    ...validators(document.fetched),
    bodyHash: document.bodyHash,
    lastStatus: outcome,
    unchangedStreak: news ? 0 : feed.fetch.unchangedStreak + 1,
  };
  const planned = await planNextRefresh(deps, feed, state, { outcome, ...hints }, now, fetchUrl);
  return ran(feed, outcome, stored, planned, fetchUrl);
}

/**
 * The refresh that committed first also planned the next run: this one keeps that plan and writes
 * no fetch state over it.
 */
async function superseded(deps: RefreshDeps, feed: Feed, now: Date): Promise<RefreshOutcome> {
  const current = await deps.feeds.getById(feed.id);
  const planned = current?.fetch.nextFetchAt;
  const nextRunAt =
    current && !isPolled(current) ? null : planned ? new Date(planned) : new Date(now.getTime() + deps.settings.poll.minSeconds * 1000);
  return { status: 'superseded', fresh: [], changed: [], nextRunAt, fetchUrl: feed.fetchUrl };
}

/** Records a fetch of `feed` at `now` that failed (a source failure, not ours) and plans the retry. */
export async function recordFailure(deps: RefreshDeps, feed: Feed, error: FeedmillError, now: Date): Promise<RefreshOutcome> {
  const failing = afterFailure(
    {
      ...fetchedNow(feed, now),
      lastStatus: error.code,
      lastError: { code: error.code, message: error.message },
      errorCount: feed.fetch.errorCount + 1,
    },
    now,
    deps.settings.feedDisableAfterSeconds,
  );
  // The fetcher says what failed; what happens next is ours to say (`next_fetch_at` says when).
  const next = isPolled({ settings: feed.settings, fetch: failing })
    ? 'feedmill will retry later'
    : 'feedmill will not retry until the feed is resumed';
  const state: FetchState = { ...failing, lastError: { code: error.code, message: `${error.message}; ${next}` } };
  const retryAfter = retryAfterSeconds(error.details.retryAfter, now);
  const planned = await planNextRefresh(deps, feed, state, { outcome: 'error', retryAfterSeconds: retryAfter }, now, feed.fetchUrl);
  return { ...ran(feed, 'failed', { fresh: [], changed: [] }, planned, feed.fetchUrl), error: error.code, errorMessage: error.message };
}
