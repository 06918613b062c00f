import { toApiFeedWithItems, type ApiFeedWithItems } from '../domain/api-shapes.js';
import type { Principal } from '../domain/api-key.js';
import type { ItemSort } from '../domain/feed.js';
import { itemsShown, type AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';

/** GET /v1/feeds/:id; without `sort`, the feed's own preference applies. */
export async function getFeed(
  deps: Pick<AppDeps, 'feeds' | 'items' | 'settings'>,
  principal: Principal,
  feedId: string,
  sort?: ItemSort,
): Promise<ApiFeedWithItems> {
  const feed = await findFeed(deps, principal, feedId);
  const items = await deps.items.list(feed.id, sort ?? feed.settings.sort, itemsShown);
  return toApiFeedWithItems(feed, items, deps.settings.publicUrl);
}
