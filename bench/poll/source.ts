import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { sendFeedDocument, sendNotModified } from '../feed-response.js';
import { listenOnLoopback } from '../loopback-listener.js';
import { feedDocument, itemsPer100Kb } from './documents.js';

/**
 * How the fixture answers `/feeds/{n}.xml`:
 * - `stable`: a small document (5 items) with a fixed ETag and Last-Modified; 304 when the request's
 *   If-None-Match names that ETag (or, lacking it, If-Modified-Since is not older).
 * - `same`: the same document and validators, but always 200 with the body: a server that ignores
 *   conditional requests, so only the body hash can tell it is unchanged.
 * - `changed`: every request publishes one more item: a new ~100 KB document (40 items) and ETag.
 */
export type SourceMode = 'stable' | 'same' | 'changed';

/** Requests seen since the last `take()`. */
export interface SourceCounts {
  requests: number;
  /** Requests that carried If-None-Match or If-Modified-Since. */
  conditional: number;
  status304: number;
  status200: number;
  bytes: number;
}

export interface PollSource {
  readonly origin: string;
  mode: SourceMode;
  feedUrl(n: number): string;
  /** The document of `/http/{items}.xml`: one feed of `items` short items, for the HTTP throughput runs. */
  httpFeedUrl(items: number): string;
  take(): SourceCounts;
  /** Requests per feed number since the last `takeByFeed()`. */
  takeByFeed(): Map<number, number>;
  /** Requests for `/feeds/…` since the last `takeByFeed()`, without resetting. */
  readonly feedRequests: number;
  close(): Promise<void>;
}

/** Items in the `stable` document; the first `changed` version keeps 4 of them. */
const stableItems = 5;
/** The `stable` document is version 100 of its feed: a `changed` document always has its 40 items. */
const stableVersion = 100;
const lastModified = new Date(Date.UTC(2026, 0, 1)).toUTCString();

export async function startPollSource(): Promise<PollSource> {
  const versions = new Map<number, number>();
  const stableBodies = new Map<number, Buffer>();
  let counts: SourceCounts = { requests: 0, conditional: 0, status304: 0, status200: 0, bytes: 0 };
  let origin = '';
  let byFeed = new Map<number, number>();
  let feedRequests = 0;
  const send = (response: ServerResponse, etag: string, body: Buffer): void => {
    counts.status200 += 1;
    counts.bytes += body.length;
    sendFeedDocument(response, body, { etag, lastModified });
  };
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    counts.requests += 1;
    const inm = request.headers['if-none-match'];
    const ims = request.headers['if-modified-since'];
    if (inm !== undefined || ims !== undefined) counts.conditional += 1;
    const http = /^\/http\/(\d+)\.xml$/.exec(request.url ?? '');
    if (http) return send(response, '"http"', Buffer.from(feedDocument(origin, 0, Number(http[1]), Number(http[1]), 2)));
    const match = /^\/feeds\/(\d+)\.xml$/.exec(request.url ?? '');
    if (!match) {
      response.writeHead(404).end();
      return;
    }
    const feed = Number(match[1]);
    byFeed.set(feed, (byFeed.get(feed) ?? 0) + 1);
    feedRequests += 1;
    if (source.mode === 'changed') {
      const version = (versions.get(feed) ?? stableVersion) + 1;
      versions.set(feed, version);
      return send(response, `"c${feed}-${version}"`, Buffer.from(feedDocument(origin, feed, version, itemsPer100Kb)));
    }
    const etag = `"s${feed}"`;
    // RFC 9110 §13.1.3: If-Modified-Since only counts when If-None-Match is absent.
    const fresh = inm !== undefined ? inm === etag : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified);
    if (source.mode === 'stable' && fresh) {
      counts.status304 += 1;
      sendNotModified(response, { etag, lastModified });
      return;
    }
    let body = stableBodies.get(feed);
    if (!body) {
      body = Buffer.from(feedDocument(origin, feed, stableVersion, stableItems));
      stableBodies.set(feed, body);
    }
    send(response, etag, body);
  };
  const listener = await listenOnLoopback(createServer({ keepAliveTimeout: 60_000 }, handle));
  origin = listener.origin;
  const source: PollSource = {
    origin,
    mode: 'stable',
    feedUrl: (n) => `${origin}/feeds/${n}.xml`,
    httpFeedUrl: (items) => `${origin}/http/${items}.xml`,
    take() {
      const taken = counts;
      counts = { requests: 0, conditional: 0, status304: 0, status200: 0, bytes: 0 };
      return taken;
    },
    takeByFeed() {
      const taken = byFeed;
      byFeed = new Map();
      feedRequests = 0;
      return taken;
    },
    get feedRequests() {
      return feedRequests;
    },
    close: () => listener.close(),
  };
  return source;
}
