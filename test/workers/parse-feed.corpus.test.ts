import t from 'tap';
import { formatAccuracy } from '../../bench/accuracy.js';
import { fieldSummary, scoreCorpus } from '../../bench/feed-corpus-score.js';
import { sharedCorpus } from '../fixtures/corpus.js';

/**
 * Fields where the bar is out of reach because of the peer's expectations, not our output: the
 * measured floor is asserted instead, so a regression still fails. bench/README.md lists each
 * disputed case and why.
 */
const knownShortfalls: Partial<Record<string, { floor: number; why: string }>> = {
  description_html: { floor: 0.85, why: 'rss-parser rebuilds unescaped HTML in 2 reddit feeds out of order ("submitted byto"), 48 items' },
  'feed.icon': { floor: 0.8, why: '1 of 5: gofeed resolves xml:base="img" as a directory; RFC 3986 §5.2.3 merges it as a file name' },
  description_text: { floor: 0.82, why: 'the same 48 reddit items: the peer text is the text of its reordered HTML' },
};

const goal = 0.95;
const corpus = sharedCorpus('feeds');

t.test('parseFeed matches the shared corpus on every field our API exposes', { skip: 'skip' in corpus && corpus.skip }, async (t) => {
  if (!('dir' in corpus)) return;
  const score = scoreCorpus(corpus.dir);
  t.comment(formatAccuracy(score));
  t.ok(score.cases > 500, `the corpus was found (${score.cases} cases)`);
  for (const [field, summary] of fieldSummary(score)) {
    const shortfall = knownShortfalls[field];
    const bar = shortfall?.floor ?? goal;
    const measured = summary.normalised;
    t.ok(
      measured >= bar,
      `${field}: ${(measured * 100).toFixed(1)}% normalised over ${summary.asserted} assertions, bar ${(bar * 100).toFixed(0)}%${shortfall ? ` (below goal: ${shortfall.why})` : ''}`,
    );
  }
});
