import type { Principal } from '../domain/api-key.js';
import type { EventItem } from '../domain/feed-event.js';
import type { Feed } from '../domain/feed.js';
import { itemMatches, parseFilter } from '../domain/webhook-filter.js';
import type { AppDeps } from './deps.js';
import { eventItem } from './feed-events.js';
import { findFeed } from './find-feed.js';
import { findBundle } from './bundles.js';

export interface FilterVerdict {
  feedId: string;
  feedTitle: string;
  item: EventItem;
  /** Whether a webhook with this filter would send the item. */
  kept: boolean;
}

/** Enough recent items to judge a filter by, without reading every feed of a large account. */
const feedsRead = 20;
const itemsPerFeed = 10;
const shown = 30;

/**
 * A dry run of a webhook filter over the recent items of the feeds it would cover (some feeds, the
 * feeds of some bundles, or the account's newest feeds), newest first: what would be sent, what not.
 * The filter is checked by the same rules as when it is saved.
 */
export async function previewWebhookFilter(
  deps: Pick<AppDeps, 'feeds' | 'items' | 'bundles'>,
  principal: Principal,
  input: { filters: unknown; feeds?: readonly string[]; bundles?: readonly string[] },
): Promise<FilterVerdict[]> {
  const filter = input.filters === null || input.filters === undefined ? null : parseFilter(input.filters);
  let feeds: Feed[];
  if (input.feeds) {
    feeds = await Promise.all(input.feeds.slice(0, feedsRead).map((feedId) => findFeed(deps, principal, feedId)));
  } else if (input.bundles) {
    const ids = new Set<string>();
    for (const bundleId of input.bundles) for (const feedId of (await findBundle(deps, principal, bundleId)).feedIds) ids.add(feedId);
    const lookups = await Promise.all([...ids].slice(0, feedsRead).map((feedId) => deps.feeds.get(principal.accountId, feedId)));
    feeds = lookups.flatMap((lookup) => (lookup.state === 'present' ? [lookup.feed] : []));
  } else {
    feeds = (await deps.feeds.list(principal.accountId, { limit: feedsRead, offset: 0 })).feeds;
  }
  const verdicts = await Promise.all(
    feeds.map(async (feed) =>
      (await deps.items.list(feed.id, 'last_added', itemsPerFeed)).map((stored) => {
        const item = eventItem(stored, feed.settings.customAuthor);
        return { feedId: feed.id, feedTitle: feed.title, item, kept: filter === null || itemMatches(item, filter) };
      }),
    ),
  );
  return verdicts
    .flat()
    .sort((a, b) => (a.item.date_published < b.item.date_published ? 1 : a.item.date_published > b.item.date_published ? -1 : 0))
    .slice(0, shown);
}
