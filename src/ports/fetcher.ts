import type { FetchOptions } from '../domain/fetch-options.js';

/** Validators of the last successful fetch, sent back for a conditional GET. */
export interface FetchValidators {
  etag?: string;
  lastModified?: string;
}

/**
 * What a source asks to be sent beyond its address (docs/fetch-options.md), opened. The fetcher
 * sends it on each hop whose origin is `origin`, and on no other: a redirect to another origin goes
 * without it, and so does a later hop back.
 */
export interface SourceAccess {
  /** The source's own origin (`https://example.com`), as `URL.origin` spells it. */
  origin: string;
  options: FetchOptions;
}

export interface FetchRequest extends FetchValidators {
  url: string;
  access?: SourceAccess;
}

/** What the caching headers of the answer said; the poll policy reads them. */
export interface FetchHints {
  cacheControl?: string;
  retryAfter?: string;
}

export type FetchResult =
  | ({ status: 304; url: string } & FetchHints)
  | ({
      status: 200;
      /** The address the body came from, after redirects: the base for relative links. */
      url: string;
      body: Uint8Array;
      contentType?: string;
      /**
       * The answer's Content-Location header as sent, when there was one: the body's own address
       * (RFC 9110 §8.7), which relative links in it resolve against before `url`.
       */
      contentLocation?: string;
      etag?: string;
      lastModified?: string;
    } & FetchHints);

/**
 * Fetches a source over HTTP(S). Throws FeedmillError with `invalid_url`, `address_not_allowed`,
 * `upstream_timeout`, `upstream_status` (details: status, retryAfter), `too_many_redirects`,
 * `body_too_large` or `source_unreachable`.
 */
export interface Fetcher {
  fetch(request: FetchRequest): Promise<FetchResult>;
  close(): Promise<void>;
}
