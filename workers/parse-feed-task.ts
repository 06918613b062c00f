import { isFeedmillError, type ErrorCode } from '../src/domain/errors.js';
import type { ParsedFeed } from '../src/domain/item.js';
import { parseFeed, type ParseFeedMeta } from './parse-feed.js';

export interface ParseFeedTask {
  body: Uint8Array;
  url: string;
  contentType?: string;
  /** The HTTP Content-Location header, when the server sent one (see ParseFeedMeta). */
  contentLocation?: string;
}

export type ParseFeedTaskResult = { ok: true; feed: ParsedFeed } | { ok: false; code: ErrorCode; message: string };

/**
 * The piscina task. An error's class and code do not survive the structured clone back to the
 * main thread, so failures come back as data and the pool rebuilds the FeedmillError.
 */
export default function parseFeedTask(task: ParseFeedTask): ParseFeedTaskResult {
  try {
    const meta: ParseFeedMeta = { url: task.url };
    if (task.contentType !== undefined) meta.contentType = task.contentType;
    if (task.contentLocation !== undefined) meta.contentLocation = task.contentLocation;
    return { ok: true, feed: parseFeed(task.body, meta) };
  } catch (error) {
    if (isFeedmillError(error)) return { ok: false, code: error.code, message: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, code: 'internal_error', message: `Parsing ${task.url} failed unexpectedly: ${message}` };
  }
}
