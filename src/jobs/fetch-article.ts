import { fetchArticle } from '../app/fetch-article.js';
import { parseArticleJobId } from '../domain/full-text.js';
import type { JobHandler } from '../ports/scheduler.js';
import { articleRetryMs } from './retry-policy.js';

/**
 * The fetch-article job (full text): `{ id: articleJobId(feedId, key) }` → the use case → when to
 * try again. One per item, on a queue of its own, driven by the local scheduler and by BullMQ alike;
 * every article job of a process passes its host gate (`deps.articleGate`).
 */
export function fetchArticleHandler(deps: Parameters<typeof fetchArticle>[0]): JobHandler {
  return async ({ id }) => {
    const item = parseArticleJobId(id);
    return item ? fetchArticle(deps, articleRetryMs, item.feedId, item.key) : null;
  };
}
