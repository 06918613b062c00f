import { createHash } from 'node:crypto';
import type { FetchState } from '../domain/feed.js';
import type { ParsedFeed } from '../domain/item.js';
import type { FetchResult } from '../ports/fetcher.js';
import type { AppDeps } from './deps.js';
import type { ReadOptions } from './read-options.js';
import { renderPage } from './render-page.js';
import { rendersPage } from '../domain/render-mode.js';

/** How a source's document is read: as a native feed, or as a web page whose items are extracted. */
export type SourceReader = 'feed' | 'page';

/** How to read one address: its reader, and for a page the built-in extractor, if one is named. */
export type ReadAs = Pick<FetchState, 'reader' | 'extractor' | 'rendered'>;

/** A document read and parsed (or extracted): what the rest of the refresh pipeline works on. */
export interface ParsedDocument {
  kind: 'parsed';
  fetched: FetchResult & { status: 200 };
  bodyHash: string;
  parsed: ParsedFeed;
}

export type FetchedDocument =
  | { kind: 'not_modified'; fetched: FetchResult }
  | { kind: 'same_body'; fetched: FetchResult & { status: 200 }; bodyHash: string }
  | ParsedDocument;

export const bodyHashOf = (body: Uint8Array): string => createHash('sha256').update(body).digest('base64url');

/**
 * Conditional GET, then parse (or extract) in the pool. A 304, or a 200 whose body is
 * byte-identical to the last one read, never reaches the pool. With `options.selectors` the document
 * is read as a page with them, whatever `readAs` says. A page that needs a browser is rendered
 * instead (no conditional GET then: the page as served says nothing of what its scripts load).
 */
export async function fetchDocument(
  deps: Pick<AppDeps, 'fetcher' | 'parser' | 'renderer'>,
  url: string,
  previous: Pick<FetchState, 'etag' | 'lastModified' | 'bodyHash'> = {},
  readAs: ReadAs = {},
  options: ReadOptions = {},
): Promise<FetchedDocument> {
  const fetched = rendersPage(readAs, options.render)
    ? await renderPage(deps, { url })
    : await deps.fetcher.fetch({
        url,
        etag: previous.etag,
        lastModified: previous.lastModified,
        ...(options.access ? { access: options.access } : {}),
      });
  if (fetched.status === 304) return { kind: 'not_modified', fetched };
  const bodyHash = bodyHashOf(fetched.body);
  if (bodyHash === previous.bodyHash) return { kind: 'same_body', fetched, bodyHash };
  const meta = { url: fetched.url, contentType: fetched.contentType, contentLocation: fetched.contentLocation };
  const parsed = options.selectors
    ? await deps.parser.extractPage(fetched.body, { ...meta, selectors: options.selectors })
    : readAs.reader === 'page'
      ? await deps.parser.extractPage(fetched.body, { ...meta, ...(readAs.extractor ? { extractor: readAs.extractor } : {}) })
      : await deps.parser.parse(fetched.body, meta);
  return { kind: 'parsed', fetched, bodyHash, parsed };
}
