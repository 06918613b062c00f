import { feedEventId } from '../domain/feed-event.js';
import type { Feed } from '../domain/feed.js';
import { isFeedmillError } from '../domain/errors.js';
import { pendingArticle, withFullText } from '../domain/full-text.js';
import type { ArticleError, ItemArticle } from '../domain/item-article.js';
import type { StoredItem } from '../domain/stored-item.js';
import type { AppDeps } from './deps.js';
import { feedEvent, publishFeedEvent } from './feed-events.js';
import { openFeedAccess } from './fetch-access.js';
import { articleHost } from './host-gate.js';
import { PageRefused, readArticle } from './read-article.js';

type ArticleDeps = Pick<
  AppDeps,
  'feeds' | 'items' | 'fetcher' | 'parser' | 'outbox' | 'bus' | 'deliveryScheduler' | 'clock' | 'settings' | 'articleGate'
>;

/** A failure of the page behind an item: its code (the fetcher's, or one of articleOnlyFailures) and the upstream status. */
export interface ArticleFailure extends ArticleError {
  status?: number;
}

/** What to do after a failed fetch: wait this many ms and try again, or null: give up. src/jobs/retry-policy.ts decides. */
export type ArticleRetry = (failure: ArticleFailure, attempts: number) => number | null;

/** A failure of the page (ours are thrown on, for the scheduler to retry). */
function failureOf(error: unknown): ArticleFailure | undefined {
  if (error instanceof PageRefused) return error.failure;
  if (!isFeedmillError(error)) return undefined;
  const status = error.details.status;
  return { code: error.code, message: error.message, ...(typeof status === 'number' ? { status } : {}) };
}

/**
 * Announces an item of a full-text feed, once: `items_new` of its own `feed_update` event, as the
 * item is shown (with its article, or its teaser when the article failed). The event id is derived
 * from the item, so a job retried after a crash stores and sends the same event again, which the
 * outbox, the dispatch and live streams all take once.
 */
async function announce(deps: ArticleDeps, feed: Feed, item: StoredItem, article: ItemArticle): Promise<void> {
  const shown = withFullText({ ...item, article }, feed.settings);
  const now = deps.clock.now();
  const envelope = await feedEvent(deps, feed, { fresh: [shown], changed: [] }, now);
  // Filters dropped it: announced to no one, as a refresh would have.
  if (!envelope) return;
  const id = feedEventId(feed.id, [{ key: item.key, contentHash: `article\u0000${item.contentHash}` }]);
  const event = { ...envelope, event: { ...envelope.event, id } };
  await deps.outbox.save(event);
  await publishFeedEvent(deps, event);
}

const timeoutError = (seconds: number): ArticleError => ({
  code: 'timeout',
  message: `The article was not in within FEEDMILL_FULL_TEXT_MAX_WAIT (${seconds} s); the item was announced with its teaser, and the article replaces it if it arrives later`,
});

/** Resolves true once `ms` have passed, false if `settle` came first. */
function deadlineRace(ms: number, settle: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), Math.max(0, ms));
  });
  const settled = settle.then(
    () => false,
    () => false,
  );
  return Promise.race([passed, settled]).finally(() => clearTimeout(timer));
}

/**
 * The fetch-article job of one item: fetch its page once, extract the article, store it beside the
 * item, and announce the item if it waits for that. Idempotent per item: what is done is recorded
 * before the job ends, and a job run again after a crash finds it and does only what is left.
 * Returns when to run again (a failure worth retrying), or null when the item's article is settled.
 *
 * An item not announced by its deadline (FEEDMILL_FULL_TEXT_MAX_WAIT after its wait began) is
 * announced then with its teaser, as `failed` (`timeout`) — even while a slow fetch is still under
 * way; an article that arrives later replaces the teaser silently.
 */
export async function fetchArticle(deps: ArticleDeps, retry: ArticleRetry, feedId: string, key: string): Promise<Date | null> {
  const feed = await deps.feeds.getById(feedId);
  const [item] = feed ? await deps.items.getMany(feedId, [key]) : [];
  if (!feed || !item?.article) return null;
  const started = deps.clock.now();
  // The item's address changed since the wait began: the page of the new one is what counts.
  let article = item.article.url === item.url ? item.article : pendingArticle(item, started.toISOString(), item.article.announced);
  const save = async (next: ItemArticle): Promise<void> => {
    article = next;
    await deps.items.saveArticle(feedId, key, next);
  };
  if (!feed.settings.fullText) {
    // Turned off while the item waited: it is shown with its teaser, so it is announced with it.
    if (!article.announced) await announce(deps, feed, item, article);
    if (!article.announced) await save({ ...article, announced: true });
    return null;
  }
  if (article.status === 'ok') {
    if (!article.announced) await announce(deps, feed, item, article);
    if (!article.announced) await save({ ...article, announced: true });
    return null;
  }
  const { maxWaitSeconds } = deps.settings.fullText;
  const deadline = new Date(new Date(article.since).getTime() + maxWaitSeconds * 1000);
  const timeOut = async (): Promise<void> => {
    const timedOut: ItemArticle = { ...article, status: 'failed', error: timeoutError(maxWaitSeconds) };
    await announce(deps, feed, item, timedOut);
    await save({ ...timedOut, announced: true });
  };
  // Opened per attempt, async so that a key that cannot open them fails the attempt, not the job.
  const attempt = deps.articleGate(articleHost(item.url), async () =>
    readArticle(deps, item.url, feed.settings.fullTextRules, openFeedAccess(deps, feed)),
  );
  if (!article.announced && (await deadlineRace(deadline.getTime() - started.getTime(), attempt))) await timeOut();
  try {
    const found = await attempt;
    const done: ItemArticle = { ...article, status: 'ok', error: null, ...found, attempts: article.attempts + 1 };
    if (!done.announced) await announce(deps, feed, item, done);
    await save({ ...done, announced: true });
    return null;
  } catch (error) {
    const failure = failureOf(error);
    if (!failure) throw error;
    const attempts = article.attempts + 1;
    const { status: _status, ...shownError } = failure;
    const wait = retry(failure, attempts);
    if (wait !== null) {
      await save({ ...article, error: shownError, attempts });
      const next = new Date(deps.clock.now().getTime() + wait);
      return article.announced || next < deadline ? next : deadline;
    }
    const failed: ItemArticle = { ...article, status: 'failed', error: shownError, attempts };
    if (!failed.announced) await announce(deps, feed, item, failed);
    await save({ ...failed, announced: true });
    return null;
  }
}
