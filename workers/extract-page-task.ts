import { isFeedmillError, type ErrorCode } from '../src/domain/errors.js';
import type { PageSelectors } from '../src/domain/page-selectors.js';
import type { PageExtractor } from '../src/domain/platforms/platform-rule.js';
import { extractPage, type ExtractedPage } from './extract-page.js';
import { decodePage } from './extract-page/decode.js';
import { pageExtractorFunctions } from './extractors/index.js';

export interface ExtractPageTask {
  body: Uint8Array;
  url: string;
  /** The HTTP Content-Type; its charset decides the decoding unless the body has a BOM. */
  contentType?: string;
  /** A built-in extractor that knows this page's structure; else extract-page's heuristics. */
  extractor?: PageExtractor;
  /** A person's selectors: they decide the items, over the extractor and the heuristics. */
  selectors?: PageSelectors;
}

export type ExtractPageTaskResult = { ok: true; page: ExtractedPage } | { ok: false; code: ErrorCode; message: string };

/**
 * The piscina task. An error's class and code do not survive the structured clone back to the
 * main thread, so failures come back as data and the pool rebuilds the FeedmillError.
 */
export default function extractPageTask(task: ExtractPageTask): ExtractPageTaskResult {
  try {
    const html = decodePage(task.body, task.contentType);
    if (task.selectors !== undefined) return { ok: true, page: extractPage(html, { url: task.url, selectors: task.selectors }) };
    const extract = task.extractor === undefined ? extractPage : pageExtractorFunctions[task.extractor];
    return { ok: true, page: extract(html, { url: task.url }) };
  } catch (error) {
    if (isFeedmillError(error)) return { ok: false, code: error.code, message: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, code: 'internal_error', message: `Extracting items from ${task.url} failed unexpectedly: ${message}` };
  }
}
