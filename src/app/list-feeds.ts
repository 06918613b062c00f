import { toApiFeed, type ApiFeed } from '../domain/api-shapes.js';
import type { Principal } from '../domain/api-key.js';
import { parsePage, type ListEnvelope, type PageQuery } from '../domain/pagination.js';
import type { AppDeps } from './deps.js';

/** GET /v1/feeds: newest first, the spec's list envelope. */
export async function listFeeds(deps: Pick<AppDeps, 'feeds' | 'settings'>, principal: Principal, query: PageQuery): Promise<ListEnvelope<ApiFeed>> {
  const page = parsePage(query);
  const { total, feeds } = await deps.feeds.list(principal.accountId, page);
  return { total, offset: page.offset, limit: page.limit, data: feeds.map((feed) => toApiFeed(feed, deps.settings.publicUrl)) };
}
