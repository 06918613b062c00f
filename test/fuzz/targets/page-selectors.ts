import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePageSelectors } from '../../../src/domain/page-selectors.js';
import { extractPage } from '../../../workers/extract-page.js';
import { repoRoot } from '../../fixtures/repo-root.js';
import { callParser, checkFeed } from '../safety.js';
import type { FuzzTarget } from '../target.js';

// One page of 200 notices, nested a few levels: a selector whose cost grows faster than the page
// (nested `:has`, long descendant chains) shows in the time bound.
const listing = readFileSync(join(repoRoot, 'test/fixtures/pages/selectors-listing.html'), 'utf8');
const board = /<div class="board">([\s\S]*?)<\/div>\s*<\/main>/.exec(listing)?.[1] ?? '';
const page = listing.replace(board, `<section><div>${board.repeat(67)}</div></section>`);

/**
 * A person's selectors: a JSON `selectors` object read by parsePageSelectors, then run on the page
 * as a refresh would. Input that is not JSON is the `item` selector, so mutations reach the CSS
 * parser and the engine directly.
 */
export const target: FuzzTarget = {
  seedDirectories: [],
  dictionary: 'css',
  run(data) {
    const text = Buffer.from(data).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = { item: text, link: '@data-href' };
    }
    const selectors = callParser(data.byteLength, ['validation_failed'], () => parsePageSelectors(value));
    if (!selectors) return;
    const feed = callParser(data.byteLength + page.length, ['no_items_found'], () =>
      extractPage(page, { url: 'https://example.test/board/', selectors }),
    );
    if (feed) checkFeed(feed);
  },
};
