import { isFeedmillError } from '../domain/errors.js';

/**
 * What to do when a job handler itself fails (not the source: source failures are outcomes the
 * refresh use case backs off from). Our own faults, such as a store that is briefly down, are
 * retried with exponential backoff; a programming error is retried slowly so it stays visible
 * in the logs without spinning.
 */
export function retryDelayMs(error: unknown, attempt: number): number {
  const base = isFeedmillError(error) ? 1_000 : 30_000;
  return Math.min(base * 2 ** Math.max(0, attempt - 1), 15 * 60_000);
}

/** Fetches of one article page before it counts as `failed`. */
export const maxArticleAttempts = 4;

/** Failures of an article page that a later try may not meet: the site was slow, down, or busy. */
const transientArticleFailures = new Set(['upstream_timeout', 'source_unreachable', 'parse_timeout']);

/**
 * Whether to fetch an article page again after a failure, and when (full text, jobs/fetch-article.ts):
 * a slow, unreachable or busy site (5xx, 429) is tried again with backoff, 30 s doubling, up to
 * `maxArticleAttempts` fetches; a page that is gone, refused, not HTML or holds no article is not.
 */
export function articleRetryMs(failure: { code: string; status?: number }, attempts: number): number | null {
  const busy = failure.code === 'upstream_status' && failure.status !== undefined && (failure.status >= 500 || failure.status === 429);
  if (!(busy || transientArticleFailures.has(failure.code)) || attempts >= maxArticleAttempts) return null;
  return 30_000 * 2 ** (attempts - 1);
}
