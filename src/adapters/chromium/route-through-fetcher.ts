import type { Route } from 'playwright-core';
import { isFeedmillError, type FeedmillError } from '../../domain/errors.js';
import type { Fetcher } from '../../ports/fetcher.js';
import type { RenderRequest } from '../../ports/page-renderer.js';

/** What one page may spend on its own requests. */
export interface RequestBudget {
  maxRequests: number;
  maxBytes: number;
}

/**
 * Kinds of request a listing never needs, refused before any fetch: they cost bytes and time, and
 * some (beacons, pings, event streams) are ways to reach a server on their own schedule.
 */
const refusedTypes = new Set(['image', 'media', 'font', 'websocket', 'eventsource', 'manifest', 'texttrack', 'ping', 'cspviolationreport']);

/** Only reading methods: a page's script never makes feedmill post anything anywhere. */
const readingMethods = new Set(['GET', 'HEAD']);

/**
 * The route handler of one page's browser context: each request is refused or fulfilled with the
 * answer of our own Fetcher, so it passes the same address rule (after DNS, on every redirect) and
 * the same caps as any fetch feedmill makes. Nothing is ever `continue`d to Chromium's network stack.
 */
export function routeThroughFetcher(
  fetcher: Fetcher,
  request: RenderRequest,
  budget: RequestBudget,
  /** Told why the page itself could not be fetched, so the render fails with the fetcher's reason. */
  onPageFailure: (error: FeedmillError) => void,
): (route: Route) => Promise<void> {
  let requests = 0;
  let bytes = 0;
  let document = request.document;
  return async (route) => {
    const asked = route.request();
    const url = asked.url();
    if (!readingMethods.has(asked.method()) || refusedTypes.has(asked.resourceType()) || !/^https?:/i.test(url)) {
      return route.abort('blockedbyclient');
    }
    // The page itself, read already by the caller: the browser is handed the same bytes.
    if (document !== undefined && asked.isNavigationRequest() && url === request.url) {
      const { body, contentType } = document;
      document = undefined;
      return route.fulfill({ status: 200, body: Buffer.from(body), contentType: contentType ?? 'text/html' });
    }
    requests += 1;
    if (requests > budget.maxRequests || bytes >= budget.maxBytes) return route.abort('blockedbyclient');
    try {
      const fetched = await fetcher.fetch({ url });
      if (fetched.status !== 200) return await route.abort('failed');
      bytes += fetched.body.byteLength;
      if (bytes > budget.maxBytes) return await route.abort('blockedbyclient');
      return await route.fulfill({
        status: 200,
        body: Buffer.from(fetched.body),
        ...(fetched.contentType ? { contentType: fetched.contentType } : {}),
      });
    } catch (error) {
      // The fetcher's own refusals and failures (address rule, timeout, an HTTP error): the page sees a failed request.
      if (!isFeedmillError(error)) throw error;
      if (asked.isNavigationRequest() && url === request.url) onPageFailure(error);
      const status = Number(error.details.status);
      if (error.code === 'upstream_status' && status >= 400) return await route.fulfill({ status, body: '' });
      return await route.abort(error.code === 'address_not_allowed' ? 'addressunreachable' : 'failed');
    }
  };
}
