import type { Principal } from '../domain/api-key.js';
import type { Feed } from '../domain/feed.js';
import { parsePage, type ListEnvelope, type PageQuery } from '../domain/pagination.js';
import type { AppDeps } from './deps.js';

/** GET /v1/feeds: newest first, the spec's list envelope. */
export async function listFeeds(deps: Pick<AppDeps, 'feeds'>, principal: Principal, query: PageQuery): Promise<ListEnvelope<Feed>> {
  const page = parsePage(query);
  const { total, feeds } = await deps.feeds.list(principal.accountId, page);
  return { total, offset: page.offset, limit: page.limit, data: feeds };
}
