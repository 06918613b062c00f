import type { Dispatcher } from 'undici';
import { FeedmillError } from '../../domain/errors.js';
import type { FetchOptions } from '../../domain/fetch-options.js';
import { parseWebUrl } from '../../domain/source-url.js';
import type { FetchRequest, FetchResult } from '../../ports/fetcher.js';
import { classifyFailure } from './classify-failure.js';
import type { FetcherSettings } from './fetcher-options.js';
import { acceptedEncodings, bodyTooLarge, readCappedBody } from './read-capped-body.js';
import { bodyFields, fetchHints, headerValue } from './response-headers.js';

// Feed types first; an HTML page may still lead to a feed through <link rel="alternate">.
const accept =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml, text/xml, ' + 'text/html;q=0.8, */*;q=0.5';

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

type Response = Dispatcher.ResponseData<null>;

/**
 * One fetch: follows redirects by hand (each hop goes through the guarded connector again, so each
 * hop's address is checked), under one deadline for the whole chain, headers and body included.
 */
export async function fetchSource(dispatcher: Dispatcher, settings: FetcherSettings, request: FetchRequest): Promise<FetchResult> {
  let url = parseWebUrl(request.url, { whole: 'the source' });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), settings.timeoutMs);
  try {
    for (let redirects = 0; ; redirects++) {
      const pending = dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: requestHeaders(settings, request, url),
        signal: deadline.signal,
      });
      const response = await beforeDeadline(pending, deadline.signal);
      const location = redirectStatuses.has(response.statusCode) ? headerValue(response.headers, 'location') : undefined;
      if (location === undefined) return await toResult(url, response, settings);
      await response.body.dump();
      if (redirects >= settings.maxRedirects) throw tooManyRedirects(settings.maxRedirects, url);
      url = parseWebUrl(location, { whole: `the redirect from ${url.href}` }, url);
    }
  } catch (error) {
    throw classifyFailure(error, { url: url.href, timedOut: deadline.signal.aborted, timeoutMs: settings.timeoutMs });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * undici honours an abort only once a request has a connection; a hop still connecting (a DNS
 * answer that never comes, say) must not outlive the deadline, so the wait is cut here too.
 */
function beforeDeadline(pending: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new Error('The fetch deadline passed while connecting'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (response) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) response.body.destroy();
        else resolve(response);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function requestHeaders(settings: FetcherSettings, request: FetchRequest, url: URL): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': settings.userAgent,
    accept,
    'accept-encoding': acceptedEncodings,
  };
  // Checked on every hop: a redirect to another origin must not carry the source's secrets along.
  if (request.access !== undefined && url.origin === request.access.origin) Object.assign(headers, accessHeaders(request.access.options));
  if (request.etag !== undefined) headers['if-none-match'] = request.etag;
  if (request.lastModified !== undefined) headers['if-modified-since'] = request.lastModified;
  return headers;
}

/** The source's own headers (the domain allowed only names that cannot collide with ours but `Accept`). */
function accessHeaders(options: FetchOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  if (options.basicAuth !== undefined) {
    const { username, password } = options.basicAuth;
    headers['authorization'] = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  }
  return headers;
}

async function toResult(url: URL, response: Response, settings: FetcherSettings): Promise<FetchResult> {
  const { statusCode, headers, body } = response;
  if (statusCode === 304) {
    await body.dump();
    return { status: 304, url: url.href, ...fetchHints(headers) };
  }
  // 204 and 205 promise no body (RFC 9110 §15.3.5–6): there is nothing to parse, so not a success here.
  if (statusCode < 200 || statusCode > 299 || statusCode === 204 || statusCode === 205) {
    await body.dump();
    throw upstreamStatus(statusCode, url, headerValue(headers, 'retry-after'));
  }
  const announced = Number(headerValue(headers, 'content-length') ?? Number.NaN);
  if (announced > settings.maxBodyBytes) {
    body.destroy();
    throw bodyTooLarge(settings.maxBodyBytes, announced);
  }
  const bytes = await readCappedBody(body, headerValue(headers, 'content-encoding'), settings.maxBodyBytes);
  return { status: 200, url: url.href, body: bytes, ...bodyFields(headers), ...fetchHints(headers) };
}

/**
 * The message says what the source did, not what happens next: a refresh retries, a create does
 * not, and each says so itself (app/refresh-pipeline.ts, app/create-feed.ts).
 */
function upstreamStatus(status: number, url: URL, retryAfter: string | undefined): FeedmillError {
  const next =
    status === 429 || status >= 500
      ? `the source is failing or busy${retryAfter === undefined ? '' : ` (Retry-After: ${retryAfter})`}`
      : status === 401 || status === 403
        ? "the source wants credentials or headers it was not sent: give them as the feed's `fetch` options (docs/fetch-options.md)"
        : 'check that the address still serves the feed';
  return new FeedmillError(
    'upstream_status',
    `The source answered HTTP ${status} at ${url.href}; ${next}`,
    retryAfter === undefined ? { status } : { status, retryAfter },
  );
}

function tooManyRedirects(maxRedirects: number, url: URL): FeedmillError {
  return new FeedmillError(
    'too_many_redirects',
    `Expected at most ${maxRedirects} redirects, but ${url.href} redirects again; ` + 'point the feed at the final address',
    { maxRedirects },
  );
}
