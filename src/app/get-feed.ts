import type { Principal } from '../domain/api-key.js';
import type { ItemSort } from '../domain/feed.js';
import { feedHealth } from '../domain/feed-health.js';
import { shownItem, type FeedWithItems } from '../domain/shown-item.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';
import { feedItems, filterEpoch } from './shown-items.js';

type GetFeedDeps = Pick<AppDeps, 'feeds' | 'items' | 'settings' | 'clock'>;

/** What GET /v1/feeds/:id shows: a cheap version stamp, and the costly content on demand. */
export interface FeedView {
  /**
   * Changes whenever the content does: it holds every feed field shown, the settings (`customAuthor`
   * rewrites authors, `sort` orders items), the sort asked for, the hash of the last document
   * read, which a refresh saves right after it stores the items that document brought, and the
   * feed's health, which every refresh changes (`last_fetched_at`, `next_fetch_at`), and the minute
   * when filters judge by age, and (full text) the stamp of the feed's articles.
   */
  version: string;
  content(): Promise<FeedWithItems>;
}

/** Checks access (another account's feed is not found), then describes what would be shown. */
export async function viewFeed(deps: GetFeedDeps, principal: Principal, feedId: string, sort?: ItemSort): Promise<FeedView> {
  const feed = await findFeed(deps, principal, feedId);
  const shownSort = sort ?? feed.settings.sort;
  // Full text: an article arriving changes the items shown, and touches nothing of the feed's record.
  const articles = feed.settings.fullText ? await deps.items.articlesStamp(feed.id) : '';
  return {
    version: JSON.stringify([
      articles,
      feed.id,
      shownSort,
      feed.title,
      feed.description,
      feed.icon,
      feed.sourceUrl,
      feed.updatedAt,
      feed.settings,
      feed.fetch.bodyHash,
      feedHealth(feed),
      filterEpoch(deps, [feed.settings.filters]),
    ]),
    content: async () => ({
      feed,
      items: (await feedItems(deps, feed, shownSort)).map((item) => shownItem(item, feed.settings.customAuthor)),
    }),
  };
}

/** GET /v1/feeds/:id; without `sort`, the feed's own preference applies. */
export async function getFeed(deps: GetFeedDeps, principal: Principal, feedId: string, sort?: ItemSort): Promise<FeedWithItems> {
  return (await viewFeed(deps, principal, feedId, sort)).content();
}
