/**
 * The answers of the benches' fixture feeds (`poll/source.ts`, `scale/fixture.ts`), in one place so
 * that both benches put feedmill's fetcher before the same headers.
 */
import type { ServerResponse } from 'node:http';

export interface FeedValidators {
  etag: string;
  /** An HTTP-date; without it only the ETag can revalidate the feed. */
  lastModified?: string;
}

const headersOf = ({ etag, lastModified }: FeedValidators): Record<string, string> =>
  lastModified === undefined ? { etag } : { etag, 'last-modified': lastModified };

/** 200 with the RSS document `body` and its validators. */
export function sendFeedDocument(response: ServerResponse, body: Buffer, validators: FeedValidators): void {
  response
    .writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8', 'content-length': body.length, ...headersOf(validators) })
    .end(body);
}

/** RFC 9110 §15.4.5: a 304 must carry the ETag the 200 would have; Last-Modified may come along. */
export function sendNotModified(response: ServerResponse, validators: FeedValidators): void {
  response.writeHead(304, headersOf(validators)).end();
}
