import { createHash } from 'node:crypto';
import type { FetchState } from '../domain/feed.js';
import type { ParsedFeed } from '../domain/item.js';
import type { FetchResult } from '../ports/fetcher.js';
import type { AppDeps } from './deps.js';

export type FetchedDocument =
  | { kind: 'not_modified'; fetched: FetchResult }
  | { kind: 'same_body'; fetched: FetchResult & { status: 200 }; bodyHash: string }
  | { kind: 'parsed'; fetched: FetchResult & { status: 200 }; bodyHash: string; parsed: ParsedFeed };

/**
 * Conditional GET, then parse in the pool. A 304, or a 200 whose body is byte-identical to the
 * last one parsed, never reaches the parser.
 */
export async function fetchDocument(
  deps: Pick<AppDeps, 'fetcher' | 'parser'>,
  url: string,
  previous: Pick<FetchState, 'etag' | 'lastModified' | 'bodyHash'> = {},
): Promise<FetchedDocument> {
  const fetched = await deps.fetcher.fetch({ url, etag: previous.etag, lastModified: previous.lastModified });
  if (fetched.status === 304) return { kind: 'not_modified', fetched };
  const bodyHash = createHash('sha256').update(fetched.body).digest('base64url');
  if (bodyHash === previous.bodyHash) return { kind: 'same_body', fetched, bodyHash };
  const parsed = await deps.parser.parse(fetched.body, { url: fetched.url, contentType: fetched.contentType });
  return { kind: 'parsed', fetched, bodyHash, parsed };
}
