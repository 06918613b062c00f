import type { Feed, FetchState } from '../domain/feed.js';
import type { FeedmillError} from '../domain/errors.js';
import { isFeedmillError } from '../domain/errors.js';
import { diffItems } from '../domain/item-diff.js';
import type { ParsedItem } from '../domain/item.js';
import { nextPollAt, type PollSignals } from '../domain/poll-policy.js';
import type { StoredItem } from '../domain/stored-item.js';
import type { AppDeps } from './deps.js';
import { fetchDocument } from './fetch-document.js';
import { publishFeedEvent, recordFeedEvent } from './feed-events.js';
import { hintSignals, retryAfterSeconds } from './poll-signals.js';

export type RefreshDeps = Pick<AppDeps, 'feeds' | 'items' | 'outbox' | 'bus' | 'fetcher' | 'parser' | 'clock' | 'random' | 'settings'>;

export interface RefreshOutcome {
  status: 'changed' | 'unchanged' | 'not_modified' | 'failed';
  fresh: StoredItem[];
  changed: StoredItem[];
  /** The error code when `failed`. */
  error?: string;
  nextRunAt: Date;
}

/**
 * Stores the items of a parsed document that are new or changed; idempotent (upserts by stable
 * key). With `announce`, the change is also recorded as a `feed_update` event first and published
 * once the items are stored (the first fetch of a new feed is a baseline and announces nothing).
 *
 * `stillHeld` is asked before anything is written: a refresh that stalled past its job lock may be
 * running beside the worker that took the job over, and two refreshes that both see an item as new
 * would announce it under two event ids. The one that lost the job stops here; the other announces.
 */
export async function storeItems(
  deps: Pick<AppDeps, 'items' | 'outbox' | 'bus' | 'clock' | 'settings'>,
  feed: Feed,
  items: readonly ParsedItem[],
  now: Date,
  announce: boolean,
  stillHeld: () => Promise<boolean> = async () => true,
): Promise<{ fresh: StoredItem[]; changed: StoredItem[] }> {
  const known = await deps.items.known(feed.id);
  const diff = diffItems(feed.id, items, known, now.toISOString());
  if (diff.fresh.length + diff.changed.length > 0 && !(await stillHeld())) {
    throw new Error(
      `Stopped the refresh of feed ${feed.id} before storing ${diff.fresh.length + diff.changed.length} items: this worker stalled past its job lock and another worker holds the job now; that worker stores and announces them. If this repeats, raise FEEDMILL_JOB_LOCK_TIMEOUT or give the worker more CPU`,
    );
  }
  if (!announce) {
    await deps.items.upsert([...diff.fresh, ...diff.changed]);
    return diff;
  }
  // A refresh that died after recording its event and before storing the items left that event
  // unpublished, and its items come back in this diff: they are that event's news, published now,
  // not repeated under a new id (an item changed again since is not announced twice either).
  const pending = diff.fresh.length + diff.changed.length > 0 ? await deps.outbox.unpublishedOf(feed.id) : [];
  const covered = new Set(pending.flatMap((envelope) => envelope.itemKeys ?? []));
  const news = { fresh: diff.fresh.filter((item) => !covered.has(item.key)), changed: diff.changed.filter((item) => !covered.has(item.key)) };
  const event = await recordFeedEvent(deps, feed, news, now);
  await deps.items.upsert([...diff.fresh, ...diff.changed]);
  for (const envelope of pending) await publishFeedEvent(deps, envelope);
  if (event) await publishFeedEvent(deps, event);
  return diff;
}

const jitter = (deps: Pick<AppDeps, 'random'>): number => (deps.random(1)[0] ?? 0) / 256;

/** Computes and records when to come back, given what this refresh saw; the scheduler keeps the date. */
export async function planNextRefresh(
  deps: Pick<AppDeps, 'feeds' | 'random' | 'settings'>,
  feed: Feed,
  state: FetchState,
  signals: Omit<PollSignals, 'jitter' | 'unchangedStreak' | 'errorCount'>,
  now: Date,
  fetchUrl: string,
): Promise<Date> {
  const next = nextPollAt(now, deps.settings.poll, {
    ...signals,
    unchangedStreak: state.unchangedStreak,
    errorCount: state.errorCount,
    jitter: jitter(deps),
  });
  await deps.feeds.saveFetchState(feed.id, { ...state, nextFetchAt: next.toISOString() }, fetchUrl);
  return next;
}

/**
 * The feed actor's one message: conditional GET → parse in the pool → diff against stored items →
 * persist → plan the next refresh. Called by the job handler; never throws for a source
 * failure (that is an outcome), only for our own (store) failures, which the scheduler retries,
 * and when `stillHeld` says another worker has taken the job over (see storeItems).
 */
export async function refreshFeed(deps: RefreshDeps, feedId: string, stillHeld?: () => Promise<boolean>): Promise<RefreshOutcome | null> {
  const feed = await deps.feeds.getById(feedId);
  if (!feed) return null;
  const now = deps.clock.now();
  const base: FetchState = { ...feed.fetch, lastFetchedAt: now.toISOString() };
  try {
    const document = await fetchDocument(deps, feed.fetchUrl, feed.fetch, feed.fetch.reader);
    const hints = hintSignals(document.fetched, now);
    const fetchUrl = document.fetched.url;
    if (document.kind !== 'parsed') {
      const state: FetchState = {
        ...base,
        ...(document.kind === 'same_body' ? validators(document.fetched) : {}),
        lastStatus: document.kind === 'not_modified' ? 'not_modified' : 'ok',
        errorCount: 0,
        unchangedStreak: feed.fetch.unchangedStreak + 1,
      };
      const nextRunAt = await planNextRefresh(deps, feed, state, { outcome: 'unchanged', ...hints }, now, fetchUrl);
      return { status: document.kind === 'not_modified' ? 'not_modified' : 'unchanged', fresh: [], changed: [], nextRunAt };
    }
    const { fresh, changed } = await storeItems(deps, feed, document.parsed.items, now, true, stillHeld);
    const news = fresh.length + changed.length > 0;
    const state: FetchState = {
      ...base,
      ...validators(document.fetched),
      bodyHash: document.bodyHash,
      lastStatus: 'ok',
      errorCount: 0,
      unchangedStreak: news ? 0 : feed.fetch.unchangedStreak + 1,
    };
    const outcome = news ? 'changed' : 'unchanged';
    const nextRunAt = await planNextRefresh(deps, feed, state, { outcome, ...hints }, now, fetchUrl);
    return { status: outcome, fresh, changed, nextRunAt };
  } catch (error) {
    if (!isFeedmillError(error)) throw error;
    return failed(deps, feed, base, error, now);
  }
}

function validators(fetched: { etag?: string; lastModified?: string }): Pick<FetchState, 'etag' | 'lastModified'> {
  return { etag: fetched.etag, lastModified: fetched.lastModified };
}

async function failed(deps: RefreshDeps, feed: Feed, base: FetchState, error: FeedmillError, now: Date): Promise<RefreshOutcome> {
  const state: FetchState = { ...base, lastStatus: error.code, errorCount: feed.fetch.errorCount + 1 };
  const retryAfter = retryAfterSeconds(error.details.retryAfter, now);
  const nextRunAt = await planNextRefresh(deps, feed, state, { outcome: 'error', retryAfterSeconds: retryAfter }, now, feed.fetchUrl);
  return { status: 'failed', fresh: [], changed: [], error: error.code, nextRunAt };
}
