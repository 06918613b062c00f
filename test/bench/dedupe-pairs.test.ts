import { join } from 'node:path';
import t from 'tap';
import { judgedDuplicate, precision, readPairs, recall, tally } from '../../bench/dedupe/pairs.js';
import { repoRoot } from '../fixtures/repo-root.js';

const pairs = readPairs(join(repoRoot, 'test', 'fixtures', 'dedupe-pairs.json'));

t.test('bundles recognise copies of one article on the labelled pairs: precision ≥ 95 %, recall ≥ 80 %', async (t) => {
  const { all, byKind } = tally(pairs);
  t.ok(pairs.length >= 900, `the labelled set holds ${pairs.length} pairs`);
  t.ok(precision(all) >= 0.95, `precision ${precision(all)}`);
  t.ok(recall(all) >= 0.8, `recall ${recall(all)}`);
  // The address rules are exact: every link variant and FeedBurner pair is found.
  for (const [kind, counts] of byKind)
    if (kind.startsWith('url:') || kind === 'feedburner-origlink') t.equal(counts.falseNegative, 0, kind);
});

t.test('every pair is labelled one way or the other, and the scorer finds an identical copy', async (t) => {
  t.same(new Set(pairs.map((pair) => pair.label)), new Set(['duplicate', 'distinct']));
  // Sanity of the scorer itself: a copy against an identical copy is one article.
  const first = pairs[0];
  if (first) t.ok(judgedDuplicate({ ...first, b: { ...first.a, feed: 'elsewhere' } }));
});
