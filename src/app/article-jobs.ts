import type { Feed } from '../domain/feed.js';
import { articleJobId, pendingArticle } from '../domain/full-text.js';
import type { StoredItem } from '../domain/stored-item.js';
import type { AppDeps } from './deps.js';

/** How many of a feed's latest items turning full text on fills in. */
export const fullTextFill = 20;

type ArticleDeps = Pick<AppDeps, 'items' | 'articleScheduler' | 'clock'>;

/**
 * Records the wait for the articles of `items` as pending, so a restart finds it (resumeArticles).
 * `announced`: the items need no announcing when their articles arrive (they were announced
 * before, or are a baseline).
 */
export async function recordWaits(
  deps: Pick<AppDeps, 'items'>,
  feedId: string,
  items: readonly StoredItem[],
  announced: boolean,
  now: Date,
): Promise<void> {
  for (const item of items) await deps.items.saveArticle(feedId, item.key, pendingArticle(item, now.toISOString(), announced));
}

/** Schedules the fetch-article jobs of `items`, now. */
export async function scheduleArticles(
  deps: Pick<AppDeps, 'articleScheduler'>,
  feedId: string,
  items: readonly StoredItem[],
  now: Date,
): Promise<void> {
  for (const item of items) await deps.articleScheduler.schedule(articleJobId(feedId, item.key), now);
}

/**
 * Turning full text on fills in the latest items: they keep their place and teaser until their
 * articles arrive, which then replace the teasers silently (nothing changed at the source). Items
 * whose article for their current address is already in are not fetched again.
 */
export async function fillFullText(deps: ArticleDeps, feed: Feed): Promise<void> {
  const latest = await deps.items.list(feed.id, 'last_added', fullTextFill);
  const missing = latest.filter((item) => !(item.article?.url === item.url && item.article.status === 'ok'));
  const now = deps.clock.now();
  await recordWaits(deps, feed.id, missing, true, now);
  await scheduleArticles(deps, feed.id, missing, now);
}

/**
 * At start-up, every article still pending gets its job again (the local scheduler holds jobs in
 * memory only; BullMQ keeps them, and scheduling an id it holds changes nothing that matters).
 * `untriedOnly`: only waits no fetch has tried yet — the rescan of an embedded worker beside a
 * separate API process, which picks up the fills that process recorded, without hurrying the
 * retries this worker planned itself. `stopping` (a SIGTERM during the start) ends the walk before
 * the next feed: each is a read of its own, so there is no page to finish.
 *
 * Only the feeds with article records are read, and a feed is looked up (is it still live?) only
 * when it has an article owed: a start does not list every feed for the few that use full text
 * (at 100,000 feeds that listing was a walk as long as resumeSchedules' own).
 */
export async function resumeArticles(
  deps: Pick<AppDeps, 'feeds' | 'items' | 'articleScheduler' | 'clock'>,
  untriedOnly = false,
  stopping?: AbortSignal,
): Promise<number> {
  const now = deps.clock.now();
  let count = 0;
  for (const feedId of await deps.items.feedsWithArticles()) {
    if (stopping?.aborted) break;
    const owed = [...(await deps.items.articles(feedId))].filter(
      ([, article]) => (article.status === 'pending' || !article.announced) && !(untriedOnly && article.attempts > 0),
    );
    // A deleted feed's records stay until its items are swept; its articles are owed to nobody.
    if (owed.length === 0 || (await deps.feeds.getById(feedId)) === undefined) continue;
    for (const [key] of owed) await deps.articleScheduler.schedule(articleJobId(feedId, key), now);
    count += owed.length;
  }
  return count;
}
