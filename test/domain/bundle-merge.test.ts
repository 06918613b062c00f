import t from 'tap';
import { mergeItems } from '../../src/domain/bundle-merge.js';
import { sameStory, storyOf, titleWords } from '../../src/domain/same-story.js';
import type { StoredItem } from '../../src/domain/stored-item.js';

let position = 0;
const item = (feedId: string, fields: Partial<StoredItem>): StoredItem => {
  position++;
  return {
    feedId,
    key: `u:${fields.url ?? `https://example.com/${position}`}`,
    contentHash: `h${position}`,
    url: `https://example.com/${position}`,
    title: `Item ${position}`,
    description_text: '',
    description_html: '',
    thumbnail: null,
    authors: [],
    date_published: null,
    categories: [],
    enclosures: [],
    addedAt: '2026-11-10T12:00:00.000Z',
    publishedAt: '2026-11-10T12:00:00.000Z',
    ...fields,
  };
};

const titles = (items: readonly StoredItem[]): string[] => items.map((one) => one.title);

t.test('copies sharing a canonical address are grouped; the earliest published is kept', async (t) => {
  const late = item('a', {
    title: 'From a',
    url: 'https://www.site.example/story/?utm_source=rss',
    publishedAt: '2026-11-10T12:00:00.000Z',
  });
  const early = item('b', { title: 'From b', url: 'http://site.example/story/amp', publishedAt: '2026-11-10T09:00:00.000Z' });
  const merged = mergeItems([[late], [early]], 'date', 10);
  t.same(titles(merged), ['From b']);
  t.same(merged[0]?.duplicates, [{ feedId: 'a', url: late.url }]);
});

t.test("FeedBurner's original link meets the publisher's own link", async (t) => {
  const proxied = item('a', { url: 'https://feeds.feedburner.example/~r/x/~3/abc/story', original_url: 'https://site.example/story' });
  const direct = item('b', { url: 'https://site.example/story?fbclid=1' });
  const merged = mergeItems([[proxied], [direct]], 'date', 10);
  t.equal(merged.length, 1);
  t.same(
    merged[0]?.duplicates.map((copy) => copy.feedId),
    ['b'],
    'a tie in time goes to the feed listed first',
  );
});

t.test('a guid that is a URI names the article everywhere; a bare number does not', async (t) => {
  const merged = mergeItems(
    [
      [item('a', { id: 'tag:site.example,2026:42', title: 'Alpha one' }), item('a', { id: '7', title: 'Gamma three' })],
      [item('b', { id: 'tag:site.example,2026:42', title: 'Beta two' }), item('b', { id: '7', title: 'Delta four' })],
    ],
    'date',
    10,
  );
  t.same(titles(merged).sort(), ['Alpha one', 'Delta four', 'Gamma three']);
});

t.test('the same wire story under two headlines is one item', async (t) => {
  const opening =
    'Flooding forced thousands of residents from their homes on Tuesday as the river rose past its record level, officials said.';
  const a = item('a', {
    title: 'River floods: thousands leave their homes - Gazette',
    description_text: opening,
    publishedAt: '2026-11-10T12:00:00.000Z',
  });
  const b = item('b', {
    title: 'Thousands leave their homes as river floods | The Courier',
    description_text: opening,
    publishedAt: '2026-11-10T14:00:00.000Z',
  });
  const merged = mergeItems([[a], [b]], 'date', 10);
  t.same(titles(merged), [a.title]);
  t.same(merged[0]?.duplicates, [{ feedId: 'b', url: b.url }]);
});

t.test('alike stories are kept apart when their numbers, times or openings differ', async (t) => {
  const pairs: [string, Partial<StoredItem>, Partial<StoredItem>][] = [
    ['numbered episodes', { title: 'The Weekly Show podcast episode 12' }, { title: 'The Weekly Show podcast episode 13' }],
    ['releases', { title: 'Feedmill 1.4.0 released with new filters' }, { title: 'Feedmill 1.5.0 released with new filters' }],
    [
      'days apart',
      { title: 'Storm batters the coast overnight', publishedAt: '2026-11-01T00:00:00.000Z' },
      { title: 'Storm batters the coast overnight', publishedAt: '2026-11-05T00:00:00.000Z' },
    ],
    [
      'different openings',
      {
        title: 'What we learned this week in tech news',
        description_text: 'A new phone came out and the battery lasts two days, which reviewers liked very much indeed this time.',
      },
      {
        title: 'What we learned this week in science news',
        description_text: 'Astronomers found water vapour around a distant planet orbiting a small red star in the southern sky.',
      },
    ],
    ['short titles', { title: 'Open thread' }, { title: 'Open thread' }],
  ];
  for (const [what, a, b] of pairs) t.equal(mergeItems([[item('a', a)], [item('b', b)]], 'date', 10).length, 2, what);
});

t.test('one feed is never folded by story: only two feeds can hold copies of a story', async (t) => {
  const merged = mergeItems(
    [[item('a', { title: 'Storm batters the coast overnight again' }), item('a', { title: 'Storm batters the coast overnight' })]],
    'date',
    10,
  );
  t.equal(merged.length, 2);
});

t.test('order and limit apply to the kept copies', async (t) => {
  const merged = mergeItems(
    [
      [
        item('a', { title: 'New', url: 'https://x.example/1', addedAt: '2026-11-10T12:00:00.000Z' }),
        item('a', { title: 'Old', url: 'https://x.example/2', addedAt: '2026-11-09T12:00:00.000Z' }),
      ],
      [
        item('b', {
          title: 'Copy of old',
          url: 'https://x.example/2?utm_source=a',
          addedAt: '2026-11-11T12:00:00.000Z',
          publishedAt: '2026-11-11T12:00:00.000Z',
        }),
      ],
    ],
    'last_added',
    1,
  );
  t.same(titles(merged), ['New']);
});

t.test('title words leave out the outlet and the words that carry no subject', async (t) => {
  t.same(titleWords('Élan: the Café opens in Zürich - Daily Planet'), ['elan', 'cafe', 'opens', 'zurich']);
  t.same(titleWords('Review - The best phones'), ['review', 'best', 'phones'], 'too little would stay without the last segment');
  t.same(
    titleWords('Élan:\u00a0the Café opens in\u00a0Zürich\u00a0- Daily\u00a0Planet'),
    ['elan', 'cafe', 'opens', 'zurich'],
    'a no-break space, which titles keep, parts words and the outlet as a space does',
  );
  const a = storyOf({
    title: 'Parliament passes the budget after long debate',
    description_text: '',
    publishedAt: '2026-11-10T12:00:00.000Z',
  });
  const b = storyOf({
    title: 'Parliament passes budget after a long debate - Herald',
    description_text: '',
    publishedAt: '2026-11-10T20:00:00.000Z',
  });
  t.ok(sameStory(a, b));
  t.ok(sameStory(b, a), 'symmetric');
});
