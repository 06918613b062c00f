import type { FullTextRules } from '../domain/full-text-rules.js';
import type { ArticleError } from '../domain/item-article.js';
import type { SourceAccess } from '../ports/fetcher.js';
import type { AppDeps } from './deps.js';

/** A page that was fetched but holds no article to read: not HTML, or no article the extractor found. */
export class PageRefused extends Error {
  constructor(readonly failure: ArticleError) {
    super(failure.message);
  }
}

/** The media types an article is read from; anything else is `unsupported_content_type`. */
const htmlTypes = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Fetches the page at `url` through the fetcher (its address rule on every hop, its caps) and
 * extracts its article in the pool, with the feed's `rules` (null: the shipped ones only). The
 * feed's `access` goes along; the fetcher sends it only if the page is on the source's own origin.
 * @throws PageRefused for a page that is not HTML or holds no article; the fetcher's FeedmillError otherwise.
 */
export async function readArticle(
  deps: Pick<AppDeps, 'fetcher' | 'parser'>,
  url: string,
  rules: FullTextRules | null,
  access?: SourceAccess,
): Promise<{ html: string; text: string }> {
  const page = await deps.fetcher.fetch({ url, ...(access ? { access } : {}) });
  if (page.status !== 200) throw new Error(`Expected a 200 for an unconditional fetch of ${url}, got ${page.status}`);
  const type = page.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!htmlTypes.has(type)) {
    throw new PageRefused({
      code: 'unsupported_content_type',
      message: `Expected the page at ${url} to be text/html or application/xhtml+xml, got ${type === '' ? 'no Content-Type' : `\`${type}\``}`,
    });
  }
  const article = await deps.parser.extractArticle(page.body, {
    url: page.url,
    contentType: page.contentType,
    ...(rules ? { rules } : {}),
  });
  if (!article) {
    throw new PageRefused({
      code: 'no_article_found',
      message: `The page at ${page.url} holds no article the extractor could find${rules ? " with the feed's full_text_rules" : ''}`,
    });
  }
  return { html: article.content_html, text: article.content_text };
}
