import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';

// Each entry carries the hash of its source text, which tells an edit at the source from a newer
// parser reading the same entry differently (src/domain/item-diff.ts).
const meta = { url: 'https://example.org/feed.xml' };
const hashes = (body: string): (string | undefined)[] => parseFeed(body, meta).items.map((item) => item.source_hash);

const rss = (second: string, channelTitle = 'News'): string =>
  `<rss version="2.0"><channel><title>${channelTitle}</title>` +
  `<item><title>One</title><guid>1</guid></item><item><title>${second}</title><guid>2</guid></item></channel></rss>`;

t.test('RSS: an edit changes its entry hash alone; the channel around the entries changes none', async (t) => {
  const [one, two] = hashes(rss('Two'));
  t.ok(one && two && one !== two, 'each entry has its own');
  t.same(hashes(rss('Two')), [one, two], 'stable from one parse to the next');
  t.same(hashes(rss('Two', 'News, renamed')), [one, two], 'the channel is not the entry');
  const [oneAfter, twoAfter] = hashes(rss('Two, edited'));
  t.equal(oneAfter, one);
  t.not(twoAfter, two);
});

t.test('Atom entries and JSON Feed items carry one too', async (t) => {
  const atom = (title: string): string =>
    `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><id>urn:a</id><title>${title}</title></entry></feed>`;
  const [before] = hashes(atom('Old'));
  t.ok(before);
  t.not(hashes(atom('New'))[0], before);
  const json = (title: string): string =>
    JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'J', items: [{ id: '1', title }] });
  const [first] = hashes(json('Old'));
  t.ok(first);
  t.equal(hashes(json('Old'))[0], first);
  t.not(hashes(json('New'))[0], first);
});
