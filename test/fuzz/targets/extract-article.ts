import { extractArticle } from '../../../workers/extract-article.js';
import { callParser, checkHtml, checkUrl } from '../safety.js';
import type { FuzzTarget } from '../target.js';

/**
 * `extractArticle` over a page's bytes (it decodes them itself): what full text fetches from any
 * item's address. Its output HTML and the lead image must pass the same checks as a feed's.
 */
export const target: FuzzTarget = {
  seedDirectories: ['test/fixtures/articles', '../shared/corpus/html/listing'],
  dictionary: 'html',
  ciRuns: 150,
  run(data) {
    const article = callParser(data.byteLength, [], () => extractArticle(data, { url: 'https://example.test/2026/an-article' }));
    if (!article) return;
    checkHtml('content_html', article.content_html);
    checkUrl('lead_image', article.lead_image);
  },
};
