import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { sendFeedDocument, sendNotModified } from '../feed-response.js';
import { listenOnLoopback } from '../loopback-listener.js';

/**
 * What feed `n` of the scale fixture is, by `n % 100`: most answer 304 to the ETag they were seeded
 * with, some publish one more item on every request, a few answer 500, a few answer 304 late.
 */
export type FeedKind = 'not_modified' | 'changed' | 'failing' | 'slow';

export const kindOf = (n: number): FeedKind => {
  const slot = n % 100;
  if (slot < 90) return 'not_modified';
  if (slot < 96) return 'changed';
  if (slot < 98) return 'failing';
  return 'slow';
};

/** The validators a seeded feed starts with: the fixture's own for a 304 feed, stale ones otherwise. */
export const seededEtag = (n: number): string => (kindOf(n) === 'changed' ? `"c${n}-0"` : `"s${n}"`);
export const lastModified = new Date(Date.UTC(2026, 0, 1)).toUTCString();

/**
 * Items in a changed feed's document at most: the newest ones. Its first document holds one item
 * and each request adds one (dropping the oldest past ten), so every refresh of a changed feed stores
 * exactly one item, the first as much as the hundredth: at 100,000 feeds (a 500 s interval) the
 * measured window holds first refreshes only, at 10,000 later ones, and the two must cost alike.
 */
const itemsPerDocument = 10;

export interface ScaleFixture {
  readonly origin: string;
  feedUrl(n: number): string;
  /** Arrival times (epoch ms) of each feed's requests since start. */
  readonly arrivals: readonly (number[] | undefined)[];
  /** Distinct items the changed feeds have published so far (what the store should hold). */
  readonly itemsPublished: number;
  close(): Promise<void>;
}

function document(origin: string, n: number, version: number): string {
  const items: string[] = [];
  for (let v = version; v > Math.max(0, version - itemsPerDocument); v--) {
    items.push(
      `<item><title>Feed ${n} item ${v}</title><link>${origin}/posts/${n}/${v}</link><guid>${origin}/posts/${n}/${v}</guid>` +
        `<pubDate>${new Date(Date.UTC(2026, 0, 1) + v * 60_000).toUTCString()}</pubDate>` +
        `<description>Item ${v} of feed ${n}, a short summary of the kind most feeds carry.</description></item>`,
    );
  }
  return `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Scale feed ${n}</title><link>${origin}/</link><description>Fixture feed ${n}</description>${items.join('')}</channel></rss>`;
}

/** `kind` picks each feed's behaviour (default: the mix of `kindOf`). */
export async function startScaleFixture(feeds: number, slowMs: number, kind: (n: number) => FeedKind = kindOf): Promise<ScaleFixture> {
  const arrivals: (number[] | undefined)[] = new Array<number[] | undefined>(feeds);
  const versions = new Map<number, number>();
  let itemsPublished = 0;
  let origin = '';
  // 304 to the validator the feed was seeded with; the whole (unchanging) document to anyone else, as a create.
  const notModified = (request: IncomingMessage, response: ServerResponse, n: number): void => {
    const validators = { etag: `"s${n}"`, lastModified };
    if (request.headers['if-none-match'] === validators.etag) {
      sendNotModified(response, validators);
      return;
    }
    sendFeedDocument(response, Buffer.from(document(origin, n, itemsPerDocument)), validators);
  };
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const match = /^\/scale\/(\d+)\.xml$/.exec(request.url ?? '');
    const n = match ? Number(match[1]) : -1;
    if (n < 0 || n >= feeds) {
      response.writeHead(404).end();
      return;
    }
    (arrivals[n] ??= []).push(Date.now());
    const behaviour = kind(n);
    if (behaviour === 'failing') {
      response.writeHead(500, { 'content-type': 'text/plain' }).end('fixture failure');
      return;
    }
    if (behaviour === 'slow') {
      setTimeout(() => notModified(request, response, n), slowMs);
      return;
    }
    if (behaviour === 'not_modified') {
      notModified(request, response, n);
      return;
    }
    const version = (versions.get(n) ?? 0) + 1;
    versions.set(n, version);
    itemsPublished += 1;
    sendFeedDocument(response, Buffer.from(document(origin, n, version)), { etag: `"c${n}-${version}"` });
  };
  const listener = await listenOnLoopback(createServer({ keepAliveTimeout: 60_000 }, handle));
  origin = listener.origin;
  return {
    origin,
    feedUrl: (n) => `${origin}/scale/${n}.xml`,
    arrivals,
    get itemsPublished() {
      return itemsPublished;
    },
    close: () => listener.close(),
  };
}
