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
