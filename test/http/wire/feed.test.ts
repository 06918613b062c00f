import t from 'tap';
import { defaultFeedSettings, type Feed } from '../../../src/domain/feed.js';
import { hostedFeedUrl } from '../../../src/domain/hosted-urls.js';
import { shownItem } from '../../../src/domain/shown-item.js';
import type { StoredItem } from '../../../src/domain/stored-item.js';
import { toApiFeed, toApiFeedWithItems } from '../../../src/http/wire/feed.js';
import { toApiItem as toWire } from '../../../src/http/wire/item.js';

/** An item as a use case hands it to REST: shown with the feed's custom author. */
const toApiItem = (item: StoredItem, customAuthor: string | null) => toWire(shownItem(item, customAuthor));

const stored: StoredItem = {
  id: 'guid-1',
  url: 'https://example.com/posts/1',
  title: 'First post',
  description_text: 'Hello',
  description_html: '<p>Hello</p>',
  thumbnail: 'https://example.com/t.jpg',
  authors: [{ name: 'Ada' }, { name: 'Grace' }],
  date_published: null,
  categories: ['news'],
  enclosures: [{ url: 'https://example.com/a.mp3', type: 'audio/mpeg', length: 10 }],
  feedId: 'AAAAAAAAAAAAAAAA',
  key: 'g:guid-1',
  contentHash: 'hash',
  addedAt: '2024-03-05T12:00:00.000Z',
  publishedAt: '2024-03-05T12:00:00.000Z',
};

const feed: Feed = {
  id: 'AAAAAAAAAAAAAAAA',
  accountId: 'acct',
  title: 'Example',
  description: 'An example feed',
  icon: 'https://example.com/favicon.ico',
  sourceUrl: 'https://example.com/',
  fetchUrl: 'https://example.com/feed.xml',
  link: 'https://example.com/',
  createdAt: '2024-03-01T00:00:00.000Z',
  updatedAt: '2024-03-01T00:00:00.000Z',
  settings: defaultFeedSettings,
  fetch: { errorCount: 0, unchangedStreak: 0 },
};

t.test("an item shows the source's authors when no custom author is set", async (t) => {
  t.same(toApiItem(stored, null).authors, [{ name: 'Ada' }, { name: 'Grace' }]);
});

t.test('a custom author replaces every author of every item', async (t) => {
  t.same(toApiItem(stored, 'Newsroom bot').authors, [{ name: 'Newsroom bot' }]);
  t.same(toApiItem({ ...stored, authors: [] }, 'Newsroom bot').authors, [{ name: 'Newsroom bot' }], 'an item without authors gets one too');
  const items = [stored, { ...stored, key: 'g:2', authors: [{ name: 'Linus' }] }].map((item) => shownItem(item, 'Wire'));
  const shown = toApiFeedWithItems({ feed, items }, 'https://feeds.example.org');
  t.same(
    shown.items.map((i) => i.authors),
    [[{ name: 'Wire' }], [{ name: 'Wire' }]],
  );
});

t.test("an item leaves the server with the spec fields and full text's only, dated by its shown date", async (t) => {
  const api = toApiItem(stored, null);
  t.same(Object.keys(api).sort(), [
    'authors',
    'date_published',
    'description_html',
    'description_text',
    'full_text_error',
    'full_text_status',
    'summary_html',
    'summary_text',
    'thumbnail',
    'title',
    'url',
  ]);
  t.equal(api.full_text_status, 'skipped', 'an item of a feed without full text');
  t.equal(api.summary_html, api.description_html, 'whose teaser is its description');
  t.equal(api.date_published, stored.publishedAt, 'never null: the shown date, not the raw source date');
  t.equal(api.url, stored.url);
  t.equal(api.thumbnail, stored.thumbnail);
});

t.test('a feed is shown with its hosted address under the public URL', async (t) => {
  const api = toApiFeed(feed, 'https://feeds.example.org/');
  t.same(api, {
    id: 'AAAAAAAAAAAAAAAA',
    title: 'Example',
    source_url: 'https://example.com/',
    rss_feed_url: 'https://feeds.example.org/feeds/AAAAAAAAAAAAAAAA.xml',
    description: 'An example feed',
    icon: 'https://example.com/favicon.ico',
    status: {
      state: 'active',
      last_fetched_at: null,
      last_success_at: null,
      next_fetch_at: null,
      last_outcome: null,
      consecutive_errors: 0,
      last_error: null,
      disabled_at: null,
      disabled_reason: null,
    },
    followed: null,
  });
  t.notOk('items' in api, 'list entries carry no items');
});

t.test('a feed created from a page says which candidate it follows', async (t) => {
  const followed = { url: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCx', source: 'rule' as const, platform: 'YouTube' };
  t.same(toApiFeed({ ...feed, fetch: { ...feed.fetch, followed } }, 'https://feeds.example.org').followed, followed);
});

t.test('the hosted address has one slash whatever the public URL ends with', async (t) => {
  t.equal(hostedFeedUrl('https://h.example', 'id1'), 'https://h.example/feeds/id1.xml');
  t.equal(hostedFeedUrl('https://h.example//', 'id1'), 'https://h.example/feeds/id1.xml');
  t.equal(hostedFeedUrl('https://h.example/base/', 'id1', 'json'), 'https://h.example/base/feeds/id1.json');
});
