import { FeedmillError } from '../domain/errors.js';
import type { Fetcher } from '../ports/fetcher.js';

/**
 * The fetcher for one call that may fetch several candidates (a preview): at most `budget`
 * fetches, then each further one fails as a source failure, which discovery treats like any
 * candidate that could not be had. Per call: a fresh count each time it is made. Composed with the
 * process's fetcher as the use cases' `fetcherWithBudget` (src/app/deps.ts).
 */
export function budgetedFetcher(fetcher: Fetcher, budget: number): Fetcher {
  let spent = 0;
  return {
    async fetch(request) {
      if (spent >= budget) {
        throw new FeedmillError('source_unreachable', `${request.url} was not fetched: this call may fetch at most ${budget} addresses`);
      }
      spent++;
      return fetcher.fetch(request);
    },
    // The fetcher is shared; closing it is its owner's business.
    close: async () => undefined,
  };
}
