import { extractArticle } from '../../../workers/extract-article.js';
import { callParser, checkHtml, checkUrl } from '../safety.js';
import type { FuzzTarget } from '../target.js';

/**
 * Readability makes up to four attempts on each of up to two documents, each attempt measuring the
 * subtree of every block: a small page nesting to the depth cap (workers/extract-article/flatten.ts)
 * costs 140-240 ms of CPU whatever its size, where the 181 real news pages of ScrapingHub's
 * benchmark (up to 600 KB) cost at most 83 ms. The fixed allowance covers that once; the per-byte
 * one, which catches work growing faster than the page, is every target's.
 */
const bound = { fixedMs: 300 };

/**
 * `extractArticle` over a page's bytes (it decodes them itself): what full text fetches from any
 * item's address. Its output HTML and the lead image must pass the same checks as a feed's.
 */
export const target: FuzzTarget = {
  seedDirectories: ['test/fixtures/articles', '../shared/corpus/html/listing'],
  dictionary: 'html',
  ciRuns: 150,
  run(data) {
    const article = callParser(data.byteLength, [], () => extractArticle(data, { url: 'https://example.test/2026/an-article' }), bound);
    if (!article) return;
    checkHtml('content_html', article.content_html);
    checkUrl('lead_image', article.lead_image);
  },
};
