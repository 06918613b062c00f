import t from 'tap';
import { loadAssets } from '../../src/dashboard/assets.js';
import { feedsPage } from '../../src/dashboard/pages/feeds.js';
import type { ApiFeed } from '../../src/domain/api-shapes.js';

const failing: ApiFeed = {
  id: 'aaaaaaaaaaaaaaaa',
  title: 'Broken <site>',
  source_url: 'https://broken.example/feed',
  rss_feed_url: 'https://feeds.example/feeds/aaaaaaaaaaaaaaaa.xml',
  description: '',
  icon: '',
  status: {
    state: 'failing',
    last_fetched_at: '2026-11-25T10:00:00.000Z',
    last_success_at: '2026-11-24T10:00:00.000Z',
    next_fetch_at: '2026-11-25T10:05:00.000Z',
    last_outcome: 'upstream_status',
    consecutive_errors: 4,
    last_error: { code: 'upstream_status', message: 'The source answered 500' },
    disabled_at: null,
    disabled_reason: null,
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
