import t from 'tap';
import { loadAssets } from '../../src/dashboard/assets.js';
import { feedsPage } from '../../src/dashboard/pages/feeds.js';
import { defaultFeedSettings, type Feed } from '../../src/domain/feed.js';

const failing: Feed = {
  id: 'aaaaaaaaaaaaaaaa',
  accountId: 'a',
  title: 'Broken <site>',
  description: '',
  icon: '',
  sourceUrl: 'https://broken.example/feed',
  fetchUrl: 'https://broken.example/feed',
  link: 'https://broken.example/',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  settings: defaultFeedSettings,
  fetch: {
    lastFetchedAt: '2026-11-25T10:00:00.000Z',
    lastSuccessAt: '2026-11-24T10:00:00.000Z',
    nextFetchAt: '2026-11-25T10:05:00.000Z',
    lastStatus: 'upstream_status',
    lastError: { code: 'upstream_status', message: 'The source answered 500' },
    errorCount: 4,
    unchangedStreak: 0,
  },
};

t.test('a failing feed says so in the list: state, the error code and how many errors in a row', async (t) => {
  const page = feedsPage(loadAssets(), {
    viewer: { email: 'a@example.test', accountId: 'a', csrf: 'token' },
    feeds: [failing],
    total: 1,
    offset: 0,
    pageSize: 100,
    regions: [{ value: 'US:en', label: 'United States (English)' }],
  }).text;
  t.match(page, /<a href="\/dashboard\/feeds\/aaaaaaaaaaaaaaaa">Broken &lt;site&gt;<\/a>/);
  t.match(page, /<td><time datetime="2026-11-25T10:00:00.000Z">25 Nov 2026, 10:00 UTC<\/time><\/td>/);
  t.match(page, /<span class="state-failing">failing<\/span> · <span class="state-failing">upstream_status<\/span>/);
  t.match(page, /<td>4<\/td><\/tr>/);
});
