import { parseFeed } from '../../../workers/parse-feed.js';
import { callParser, checkFeed } from '../safety.js';
import type { FuzzTarget } from '../target.js';

/** `parseFeed` over raw bytes, as the fetcher hands them over (so charset detection runs too). */
export const target: FuzzTarget = {
  seedDirectories: ['../shared/corpus/feeds', 'test/fixtures/feeds'],
  dictionary: 'xml',
  ciRuns: 15_000,
  run(data) {
    const feed = callParser(data.byteLength, ['not_a_feed'], () => parseFeed(data, { url: 'https://example.test/feed/' }));
    if (feed) checkFeed(feed);
  },
};
