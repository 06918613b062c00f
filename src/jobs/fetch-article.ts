import type { AppDeps } from '../app/deps.js';
import { fetchArticle } from '../app/fetch-article.js';
import { createHostGate } from '../app/host-gate.js';
import { parseArticleJobId } from '../domain/full-text.js';
import type { JobHandler } from '../ports/scheduler.js';
import { articleRetryMs } from './retry-policy.js';

/**
 * The fetch-article job (full text): `{ id: articleJobId(feedId, key) }` → the use case → when to
 * try again. One per item, on a queue of its own, driven by the local scheduler and by BullMQ alike;
 * the host gate is this process's, shared by every article job it runs.
 */
export function fetchArticleHandler(deps: Parameters<typeof fetchArticle>[0] & Pick<AppDeps, 'settings'>): JobHandler {
  const gate = createHostGate({ perHost: deps.settings.fullText.perHost, pauseMs: deps.settings.fullText.hostPauseMs });
  return async ({ id }) => {
    const item = parseArticleJobId(id);
    return item ? fetchArticle(deps, gate, articleRetryMs, item.feedId, item.key) : null;
  };
}
