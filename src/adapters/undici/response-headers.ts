import type { IncomingHttpHeaders } from 'node:http';
import type { FetchHints } from '../../ports/fetcher.js';

/** One header as a string: repeated fields are joined with `, ` (RFC 9110 §5.3). */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The caching hints of an answer, with absent headers left out rather than set to `undefined`. */
export function fetchHints(headers: IncomingHttpHeaders): FetchHints {
  return present({
    cacheControl: headerValue(headers, 'cache-control'),
    retryAfter: headerValue(headers, 'retry-after'),
  });
}

/** The fields of a 200 answer that describe the body and validate the next conditional GET. */
export function bodyFields(headers: IncomingHttpHeaders): {
  contentType?: string;
  contentLocation?: string;
  etag?: string;
  lastModified?: string;
} {
  return present({
    contentType: headerValue(headers, 'content-type'),
    contentLocation: headerValue(headers, 'content-location'),
    etag: headerValue(headers, 'etag'),
    lastModified: headerValue(headers, 'last-modified'),
  });
}

function present<T extends Record<string, string | undefined>>(fields: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Record<keyof T, string>>;
}
