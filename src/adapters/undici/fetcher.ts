import { Agent } from 'undici';
import type { Fetcher } from '../../ports/fetcher.js';
import { fetchSource } from './fetch-source.js';
import { resolveFetcherOptions, type UndiciFetcherOptions } from './fetcher-options.js';
import { createGuardedConnector } from './guarded-connector.js';

export type { UndiciFetcherOptions } from './fetcher-options.js';

/**
 * The SSRF-safe fetcher: every connection, including each redirect hop, goes to an address that
 * was resolved and checked by this adapter (see `guarded-connector.ts`); bodies, redirects and time
 * are capped. Throws FeedmillError with the codes listed on the `Fetcher` port.
 * @example
 * const fetcher = createUndiciFetcher({ version: '1.4.2' });
 * const result = await fetcher.fetch({ url: 'https://example.com/feed.xml', etag: '"abc"' });
 * await fetcher.close();
 */
export function createUndiciFetcher(options: UndiciFetcherOptions = {}): Fetcher {
  const settings = resolveFetcherOptions(options);
  const agent = new Agent({
    connect: createGuardedConnector({
      lookup: settings.lookup,
      isAllowed: settings.isAddressAllowed,
      connectTimeoutMs: settings.timeoutMs,
    }),
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  });
  return {
    fetch: (request) => fetchSource(agent, settings, request),
    close: () => agent.close(),
  };
}
