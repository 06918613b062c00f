import { FeedmillError, isFeedmillError } from '../domain/errors.js';
import type { FetchResult } from '../ports/fetcher.js';
import type { AppDeps } from './deps.js';
import { bodyHashOf, fetchDocument, type ParsedDocument, type SourceReader } from './fetch-document.js';

/**
 * What a new feed will be read from, and the document read there: its first run's (`fetched.url` is
 * where later refreshes fetch).
 */
export interface ResolvedSource extends ParsedDocument {
  reader: SourceReader;
}

// Common feed addresses of blogs and CMSs, tried when a page advertises none.
const wellKnownPaths = ['/feed', '/rss.xml', '/atom.xml', '/index.xml', '/feed.xml'];
// Discovery must not turn one create into dozens of fetches.
const maxCandidates = 6;

function looksLikeHtml(fetched: FetchResult & { status: 200 }): boolean {
  if (fetched.contentType && /html/i.test(fetched.contentType)) return true;
  const head = Buffer.from(fetched.body.subarray(0, 1024)).toString('latin1').toLowerCase();
  return head.includes('<!doctype html') || head.includes('<html');
}

/** The feed at `url`, when there is one there (with items or not yet). */
async function tryFeed(deps: Pick<AppDeps, 'fetcher' | 'parser'>, url: string): Promise<ResolvedSource | undefined> {
  try {
    const document = await fetchDocument(deps, url);
    if (document.kind !== 'parsed') return undefined;
    return { ...document, reader: 'feed' };
  } catch (error) {
    if (isFeedmillError(error)) return undefined;
    throw error;
  }
}

/**
 * Turns an address into a source: a native feed as it is; a web page by the feed it advertises
 * (`<link rel="alternate">`), else a feed at a well-known path of its site, else the items the
 * page itself lists, else a feed found there that has no items yet (the page named it, or the site
 * serves it: the user asked for this source, and items come when it publishes them).
 */
export async function resolveSource(deps: Pick<AppDeps, 'fetcher' | 'parser'>, url: string): Promise<ResolvedSource> {
  const fetched = await deps.fetcher.fetch({ url });
  if (fetched.status !== 200) {
    throw new FeedmillError('source_unreachable', `The source at ${url} answered without a document; check the address`);
  }
  const meta = { url: fetched.url, contentType: fetched.contentType, contentLocation: fetched.contentLocation };
  const bodyHash = bodyHashOf(fetched.body);
  if (!looksLikeHtml(fetched))
    return { kind: 'parsed', reader: 'feed', fetched, bodyHash, parsed: await deps.parser.parse(fetched.body, meta) };

  let page: Awaited<ReturnType<typeof deps.parser.extractPage>> | undefined;
  let extractError: FeedmillError | undefined;
  try {
    page = await deps.parser.extractPage(fetched.body, meta);
  } catch (error) {
    if (!isFeedmillError(error)) throw error;
    extractError = error;
  }
  const advertised = page?.feedLinks.map((link) => link.url) ?? [];
  const candidates = advertised.length > 0 ? advertised : wellKnownPaths.map((path) => new URL(path, fetched.url).href);
  let empty: ResolvedSource | undefined;
  for (const candidate of [...new Set(candidates)].filter((href) => href !== fetched.url).slice(0, maxCandidates)) {
    const feed = await tryFeed(deps, candidate);
    if (feed && feed.parsed.items.length > 0) return feed;
    empty ??= feed;
  }
  if (page && page.items.length > 0) return { kind: 'parsed', reader: 'page', fetched, bodyHash, parsed: page };
  if (empty) return empty;
  throw (
    extractError ??
    new FeedmillError(
      'no_items_found',
      `No feed and no articles were found at ${url}; give the address of the page that lists the articles, or of the feed`,
    )
  );
}
