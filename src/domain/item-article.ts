/** Why an article could not be had: a code (the fetcher's, or one of articleOnlyFailures) and a message for humans. */
export interface ArticleError {
  code: string;
  message: string;
}

/**
 * Full text (docs/full-text.md): with a feed's `fullText` on, the page behind each new item's `url`
 * is fetched once and its article becomes the item's description; the feed's own teaser stays as
 * the summary, and is what is shown while the article is not in.
 *
 * `pending`: the article is being fetched; `ok`: it is in; `failed`: it could not be had (the error
 * says why); `skipped`: full text does not apply to the item (off, older than the fill, or past the
 * per-refresh cap).
 */
export type FullTextStatus = 'pending' | 'ok' | 'failed' | 'skipped';
export const fullTextStatuses: readonly FullTextStatus[] = ['pending', 'ok', 'failed', 'skipped'];

/**
 * Why an article could not be had: the fetcher's codes (domain/errors.ts), and three of full text's
 * own. `timeout`: not in within FEEDMILL_FULL_TEXT_MAX_WAIT, so the item was announced with its teaser.
 */
export const articleOnlyFailures = ['unsupported_content_type', 'no_article_found', 'timeout'] as const;

/** What the store keeps of an item's article, beside the item (the refresh never writes it). */
export interface ItemArticle {
  /** The item's `url` this article was fetched for: a different `url` makes it stale. */
  url: string;
  status: Exclude<FullTextStatus, 'skipped'>;
  error: ArticleError | null;
  /** The article as sanitised HTML and as text; empty until `ok`. */
  html: string;
  text: string;
  /** Fetches tried so far. */
  attempts: number;
  /** When the item was announced (or needs no announcing: it was announced before full text came to it). */
  announced: boolean;
  /** When the wait for this article began: past FEEDMILL_FULL_TEXT_MAX_WAIT the item is announced without it. */
  since: string;
}

/** An item as shown with full text applied: `description_*` is the article when it is in. */
export interface FullTextView {
  status: FullTextStatus;
  error: ArticleError | null;
  /** The feed's own description of the item (its teaser). */
  summaryHtml: string;
  summaryText: string;
}
