import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { isFeedmillError } from '../../src/domain/errors.js';
import { extractPage } from '../../workers/extract-page.js';
import { growth } from '../fixtures/growth.js';
import { repoRoot } from '../fixtures/repo-root.js';

/**
 * These pages take tens of milliseconds when the walk is linear, and minutes when it is quadratic
 * (10^10 steps at 100k); the budget tells the two apart even on a CI machine loaded 4× over.
 */
const budgetMs = 20_000;

function timed<T>(run: () => T): { value: T | undefined; error: unknown; ms: number } {
  const started = performance.now();
  try {
    return { value: run(), error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { value: undefined, error, ms: performance.now() - started };
  }
}

t.test('100k nested elements finish fast without a stack overflow', async (t) => {
  const depth = 100_000;
  const html = `<body>${'<div>'.repeat(depth)}<ul><li><a href="/a">A deeply buried first article</a></li><li><a href="/b">A deeply buried second article</a></li></ul>${'</div>'.repeat(depth)}</body>`;
  const { value, error, ms } = timed(() => extractPage(html, { url: 'https://deep.example/' }));
  t.equal(error, undefined, 'no RangeError from recursion');
  t.same(
    value?.items.map((item) => item.url),
    ['https://deep.example/a', 'https://deep.example/b'],
  );
  t.ok(ms < budgetMs, `took ${ms.toFixed(0)} ms`);
});

t.test('100k nested links (each level a list item) finish fast', async (t) => {
  const depth = 100_000;
  const html = `<body>${'<div><a href="/x">x</a>'.repeat(depth)}${'</div>'.repeat(depth)}</body>`;
  const { error, ms } = timed(() => extractPage(html, { url: 'https://deep.example/' }));
  t.ok(error === undefined || (isFeedmillError(error) && error.code === 'no_items_found'), 'either items or a clear no_items_found');
  t.ok(ms < budgetMs, `took ${ms.toFixed(0)} ms`);
});

t.test('30k attributes on one element finish fast', async (t) => {
  const attributes = Array.from({ length: 30_000 }, (_, i) => `data-a${i}="${i}"`).join(' ');
  const html = `<body><ul><li ${attributes} class="x"><a ${attributes} href="/one">The first article title</a></li><li><a href="/two">The second article title</a></li></ul></body>`;
  const { value, error, ms } = timed(() => extractPage(html, { url: 'https://wide.example/' }));
  t.equal(error, undefined);
  t.same(
    value?.items.map((item) => item.url),
    ['https://wide.example/one', 'https://wide.example/two'],
  );
  t.ok(ms < budgetMs, `took ${ms.toFixed(0)} ms`);
});

t.test('blocks nesting empty headings and links cost each block a bounded read, not their whole subtree', async (t) => {
  // The long fuzz run's page: `<h3><a href="h3><a href=…` nested 321 times (13 KB) took 232 ms,
  // and 4x the nesting 41x the time, cubic: every nested block read every heading and link below
  // it, and each read walked an empty subtree to its end. Reads are bounded per block now.
  const seed = readFileSync(join(repoRoot, 'test', 'fuzz', 'seeds', 'extract-page', 'nested-heading-links.html'), 'utf8');
  const unit = 'h3><a href="h3><a href="h3><a href="h3><';
  const before = seed.slice(0, seed.indexOf(unit));
  const after = seed.slice(seed.lastIndexOf(unit) + unit.length);
  const page = (levels: number): string => before + unit.repeat(levels) + after;
  const read = (html: string): unknown => {
    try {
      return extractPage(html, { url: 'https://example.test/blog/' });
    } catch (error) {
      if (isFeedmillError(error) && error.code === 'no_items_found') return null;
      throw error;
    }
  };
  const { ratio } = growth(page(321), page(1284), read, 3);
  t.ok(ratio < 12, `4x the nesting took ${ratio.toFixed(1)}x the CPU time`);
});
