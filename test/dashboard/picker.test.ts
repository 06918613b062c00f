import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { snapshotPolicy } from '../../src/dashboard/snapshot-html.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { signedInDashboard } from '../fixtures/signed-in-dashboard.js';

// The picker's routes over app.inject: the page, its snapshot, the live list and Save, against a
// listing on a local fixture server that counts every request for anything but the page.
const listing = readFileSync(join(repoRoot, 'test/fixtures/pages/picker-listing.html'), 'utf8');
const sentinel: string[] = [];
let pageFetches = 0;
const site = await startFixtureServer((request, response) => {
  if (request.url === '/board/') {
    pageFetches++;
    return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(listing);
  }
  if (request.url === '/feed.xml') {
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end('<rss version="2.0"><channel><title>F</title></channel></rss>');
  }
  sentinel.push(request.url ?? '');
  response.writeHead(404).end();
});
const dashboard = await signedInDashboard('alice');
const { env, person: alice } = dashboard;
t.teardown(async () => {
  await dashboard.close();
  await site.close();
});
const boardUrl = `${site.url}/board/`;
const picked = { item: 'article.notice', title: 'h2.notice-title a', date: 'p.meta time', image: 'img.thumb', author: '.by' };

/** The picker page for the board, and the frame's address and the form's token on it. */
async function openPicker() {
  const page = await alice.get(`/dashboard/feeds/pick?${new URLSearchParams({ url: boardUrl }).toString()}`);
  const frame = /<iframe id="pick-frame"[^>]*>/.exec(page.body)?.[0] ?? '';
  const src = (/src="([^"]+)"/.exec(frame)?.[1] ?? '').replace(/&amp;/g, '&');
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return { page, frame, src, token };
}

t.test('the add-feed form leads to the picker with the typed address', async (t) => {
  const feeds = await alice.get('/dashboard/feeds');
  t.match(feeds.body, /<button type="submit" formaction="\/dashboard\/feeds\/pick\/start"[^>]*>Pick items on the page<\/button>/);
  const started = await alice.post('/dashboard/feeds/pick/start', { url: boardUrl, action: '' });
  t.equal(started.statusCode, 303);
  t.equal(started.headers.location, `/dashboard/feeds/pick?${new URLSearchParams({ url: boardUrl, render: 'auto' }).toString()}`);
  t.notMatch(String(started.headers.location), /_csrf/, 'the form token stays out of the address');
});

t.test('the picker frames the snapshot sandboxed, without scripts, and may frame only our origin', async (t) => {
  const before = pageFetches;
  const { page, frame, src, token } = await openPicker();
  t.equal(page.statusCode, 200);
  t.match(frame, 'sandbox="allow-same-origin"');
  t.notMatch(frame, /allow-scripts/);
  t.match(String(page.headers['content-security-policy']), /frame-src 'self'/);
  t.match(String(page.headers['content-security-policy']), /script-src 'self'/, 'the page keeps the dashboard policy');
  t.match(page.body, /<script type="module" src="\/dashboard\/assets\/picker\.[0-9a-f]{12}\.js">/);
  t.ok(token.length >= 24, 'a random token names the snapshot');

  const snapshot = await alice.get(src);
  t.equal(snapshot.statusCode, 200);
  t.equal(snapshot.headers['content-security-policy'], snapshotPolicy, 'the snapshot has a policy of its own');
  t.equal(snapshot.headers['cache-control'], 'no-store');
  t.match(snapshot.headers['content-type'], /^text\/html; charset=utf-8/);
  t.equal(snapshot.body.match(/<article class="notice/g)?.length, 3);
  t.notMatch(snapshot.body, /<script|onload|onerror|<form|<iframe|<object|javascript:|sentinel/i);
  t.equal(pageFetches - before, 1, 'the page was fetched once for the picker and its frame');
  t.same(sentinel, [], 'nothing but the page was asked of the site');
});

t.test('the live list is what the selectors give, read by the feed extractor', async (t) => {
  const { token } = await openPicker();
  const answer = await alice.post('/dashboard/feeds/pick/items', { token, url: boardUrl, render: 'auto', ...picked });
  t.equal(answer.statusCode, 200);
  const body = JSON.parse(answer.body) as {
    count: number;
    status: string;
    list: string;
    error: unknown;
    highlight: Record<string, string | null>;
  };
  t.equal(body.count, 3);
  t.equal(body.status, '3 items match.');
  t.equal(body.error, null);
  t.match(body.list, /Winter ferry timetable[\s\S]*Pier works this week[\s\S]*Lost buoy found/);
  t.match(body.list, `href="${site.url}/notices/pier-works"`, 'links are absolute, as the feed holds them');
  t.same(body.highlight, { item: 'article.notice', title: 'h2.notice-title a', date: 'p.meta time', image: 'img.thumb' });
});

t.test('a selector that does not parse is named; one that matches nothing says so', async (t) => {
  const { token } = await openPicker();
  const broken = JSON.parse((await alice.post('/dashboard/feeds/pick/items', { token, url: boardUrl, ...picked, title: 'h2[' })).body) as {
    count: number;
    error: { field: string; message: string };
  };
  t.equal(broken.count, 0);
  t.equal(broken.error.field, 'title');
  t.match(broken.error.message, /selectors\.title/);
  const empty = JSON.parse((await alice.post('/dashboard/feeds/pick/items', { token, url: boardUrl, item: '.nothing-here' })).body) as {
    error: { field: string; message: string };
  };
  t.equal(empty.error.field, 'item');
  t.match(empty.error.message, /no element matching `selectors\.item`/);
});

t.test('an expired or unknown token takes the page again', async (t) => {
  const before = pageFetches;
  const answer = JSON.parse(
    (await alice.post('/dashboard/feeds/pick/items', { token: 'not-a-token-we-gave', url: boardUrl, ...picked })).body,
  ) as {
    count: number;
  };
  t.equal(answer.count, 3);
  t.equal(pageFetches - before, 1);
});

t.test('a feed address is refused on the form: the picker is for pages', async (t) => {
  const page = await alice.get(`/dashboard/feeds/pick?${new URLSearchParams({ url: `${site.url}/feed.xml` }).toString()}`);
  t.equal(page.statusCode, 400);
  t.match(page.body, /id="pick-url-error">Expected `url` to be the address of a web page, got a feed/);
  t.notMatch(page.body, /<iframe/);
});

t.test('Save creates the feed with the selectors; a refusal keeps everything typed', async (t) => {
  const { token } = await openPicker();
  const refused = await alice.post('/dashboard/feeds/pick', {
    token,
    url: boardUrl,
    render: 'auto',
    action: 'save',
    ...picked,
    date: 'time[',
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.body, /id="pick-date"[^>]*value="time\["[^>]*aria-invalid="true"/);
  t.match(refused.body, /id="pick-date-error">[^<]*selectors\.date/);
  t.match(refused.body, /id="pick-title"[^>]*value="h2\.notice-title a"/, 'the other fields keep their values');
  t.equal((await env.deps.feeds.list('alice', { limit: 10, offset: 0 })).total, 0, 'nothing was created');

  const saved = await alice.post('/dashboard/feeds/pick', { token, url: boardUrl, render: 'auto', action: 'save', ...picked });
  t.equal(saved.statusCode, 303);
  const feedId = /^\/dashboard\/feeds\/([^/]+)$/.exec(String(saved.headers.location))?.[1] ?? '';
  const lookup = await env.deps.feeds.get('alice', feedId);
  t.same(lookup.state === 'present' ? lookup.feed.settings.selectors : null, picked);
  const page = await alice.get(String(saved.headers.location));
  for (const title of ['Winter ferry timetable', 'Pier works this week', 'Lost buoy found']) t.match(page.body, title);
});

t.test('without the script, Show items lists them on the page', async (t) => {
  const { token } = await openPicker();
  const page = await alice.post('/dashboard/feeds/pick', { token, url: boardUrl, render: 'auto', action: 'preview', ...picked });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<p id="pick-status" role="status" aria-live="polite">3 items match\.<\/p>/);
  t.match(page.body, /<ol id="pick-items"[^>]*>[\s\S]*Lost buoy found/);
});
