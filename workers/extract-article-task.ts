import { isFeedmillError, type ErrorCode } from '../src/domain/errors.js';
import type { FullTextRules } from '../src/domain/full-text-rules.js';
import { extractArticle, type ArticleResult } from './extract-article.js';

export interface ExtractArticleTask {
  body: Uint8Array;
  /** The page's final URL, after redirects. */
  url: string;
  contentType?: string;
  /** The feed's own `full_text_rules`. */
  rules?: FullTextRules;
}

export type ExtractArticleTaskResult = { ok: true; article: ArticleResult | null } | { ok: false; code: ErrorCode; message: string };

/**
 * The piscina task. An error's class and code do not survive the structured clone back to the
 * main thread, so failures come back as data and the pool rebuilds the FeedmillError.
 */
export default function extractArticleTask(task: ExtractArticleTask): ExtractArticleTaskResult {
  try {
    const options: Parameters<typeof extractArticle>[1] = { url: task.url };
    if (task.contentType !== undefined) options.contentType = task.contentType;
    if (task.rules !== undefined) options.rules = task.rules;
    return { ok: true, article: extractArticle(task.body, options) };
  } catch (error) {
    if (isFeedmillError(error)) return { ok: false, code: error.code, message: error.message };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, code: 'internal_error', message: `Extracting the article of ${task.url} failed unexpectedly: ${message}` };
  }
}
