import { extractPage } from '../../../workers/extract-page.js';
import { callParser, checkFeed } from '../safety.js';
import type { FuzzTarget } from '../target.js';

/** `extractPage` over a page's text (the task decodes the bytes first; charset has its own target). */
export const target: FuzzTarget = {
  seedDirectories: ['../shared/corpus/html/listing', 'test/fixtures/pages'],
  dictionary: 'html',
  ciRuns: 4_000,
  run(data) {
    const html = Buffer.from(data).toString('utf8');
    const page = callParser(data.byteLength, ['no_items_found'], () => extractPage(html, { url: 'https://example.test/blog/' }));
    if (page) checkFeed(page);
  },
};
