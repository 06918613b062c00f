import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually } from '../fixtures/eventually.js';
import { binaryEnv } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';

// Selectors and the preview (issue #27) through the binary over HTTPS, against a page on a local
// fixture server whose notices the heuristics cannot see (no links in them) and which advertises
// a feed of other stories: without selectors a create follows that feed.
t.setTimeout(240_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-selectors-'));
const env = await binaryEnv(dataDir);
let page = readFileSync(join(repoRoot, 'test/fixtures/pages/selectors-listing.html'), 'utf8');
const source = await startFixtureServer((request, response) => {
  const path = request.url ?? '/';
  if (path === '/board/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  if (path === '/feed.xml') {
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(
        `<rss version="2.0"><channel><title>Everything</title><link>${source.url}/</link><item><title>Weekly digest</title><link>${source.url}/digest</link></item></channel></rss>`,
      );
  }
  response.writeHead(404).end();
});
const { service, call } = await startServiceAs(env, 'alice');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Row = [string, string, string];
const rowsOf = (body: Record<string, unknown>): Row[] =>
  (body['items'] as { title: string; url: string; date_published: string }[]).map((item) => [item.title, item.url, item.date_published]);
const codeOf = (body: Record<string, unknown>): string | undefined => (body['errors'] as { code: string }[] | undefined)?.[0]?.code;

const boardUrl = `${source.url}/board/`;
const selectors = { item: '.entry', title: '.headline', link: '@data-href', date: '.when, time', summary: '.blurb', author: '.by' };
const expectedRows: Row[] = [
  ['Winter ferry timetable', `${source.url}/notices/ferry-timetable`, '2024-03-05T00:00:00.000Z'],
  ['Pier works this week', `${source.url}/board/notices/pier-works`, '2024-03-04T08:30:00.000Z'],
  ['Lost buoy found', 'https://gazette.example/notices/lost-buoy', '2024-03-02T00:00:00.000Z'],
];

t.test('a page the extractor misreads becomes exactly the rows the selectors name', async (t) => {
  const guessed = await call('POST', '/v1/feeds', { url: boardUrl });
  t.equal(guessed.status, 200);
  t.same(
    rowsOf(guessed.json).map((row) => row[0]),
    ['Weekly digest'],
    'without selectors the create follows the feed the page advertises',
  );

  const created = await call('POST', '/v1/feeds', { url: boardUrl, selectors });
  t.equal(created.status, 200);
  t.same(
    rowsOf(created.json).sort((a, b) => b[2].localeCompare(a[2])),
    expectedRows,
  );
  t.same(created.json['followed'], { url: boardUrl, source: 'page' });
  const id = created.json['id'] as string;
  const settings = await call('GET', `/v1/feeds/${id}/settings`);
  t.same(settings.json['selectors'], selectors, 'the selectors are kept in the settings');
});

t.test('a broken selector is a 400 naming its field; selectors naming nothing are a 402', async (t) => {
  const broken = await call('POST', '/v1/feeds', { url: boardUrl, selectors: { item: 'div[class' } });
  t.equal(broken.status, 400);
  t.equal(codeOf(broken.json), 'validation_failed');
  t.match(broken.json['message'], /`selectors\.item`/);
  const badField = await call('POST', '/v1/feeds/preview', { url: boardUrl, selectors: { item: '.entry', date: 'time::after' } });
  t.equal(badField.status, 400);
  t.match(badField.json['message'], /`selectors\.date`/);
  const nothing = await call('POST', '/v1/feeds', { url: boardUrl, selectors: { item: '.no-such-notice' } });
  t.equal(nothing.status, 402);
  t.equal(codeOf(nothing.json), 'no_items_found');
});

t.test('settings set and clear the selectors; selectors naming nothing change nothing', async (t) => {
  const created = await call('POST', '/v1/feeds', { url: boardUrl });
  const id = created.json['id'] as string;
  const refused = await call('PATCH', `/v1/feeds/${id}/settings`, { selectors: { item: '.no-such-notice' } });
  t.equal(refused.status, 402);
  t.equal(codeOf(refused.json), 'no_items_found');
  t.equal((await call('GET', `/v1/feeds/${id}/settings`)).json['selectors'], null, 'unchanged after the refusal');
  const broken = await call('PATCH', `/v1/feeds/${id}/settings`, { selectors: { item: '.entry', link: 'a[' } });
  t.equal(broken.status, 400);
  t.match(broken.json['message'], /`selectors\.link`/);

  // The page gains a notice: the run that setting the selectors starts reads it with them.
  page = page.replace(
    '<div class="board">',
    '<div class="board"><div class="entry" data-href="/notices/new-pontoon"><span class="headline">New pontoon</span><span class="when">March 6, 2024</span></div>',
  );
  const set = await call('PATCH', `/v1/feeds/${id}/settings`, { selectors });
  t.equal(set.status, 200);
  t.same(set.json['selectors'], selectors);
  const fetched = await call('GET', `/v1/feeds/${id}`);
  t.same(fetched.json['followed'], { url: boardUrl, source: 'page' }, 'the feed now reads the page');
  let rows: Row[] = [];
  await eventually(
    30_000,
    async () => (rows = rowsOf((await call('GET', `/v1/feeds/${id}?sort=date`)).json)).length > 1,
    () => `the selected rows never arrived: ${JSON.stringify(rows)}`,
  );
  t.same(
    rows.filter((row) => row[0] !== 'Weekly digest'),
    [['New pontoon', `${source.url}/notices/new-pontoon`, '2024-03-06T00:00:00.000Z'], ...expectedRows],
    'the refresh stores exactly the selected rows beside what the feed already held',
  );

  const cleared = await call('PATCH', `/v1/feeds/${id}/settings`, { selectors: null });
  t.equal(cleared.status, 200);
  t.equal(cleared.json['selectors'], null);
  t.same(
    (await call('GET', `/v1/feeds/${id}`)).json['followed'],
    { url: `${source.url}/feed.xml`, source: 'advertised' },
    'cleared: the source is found again as a create finds it',
  );
});

t.test('a preview answers as a create would and stores nothing', async (t) => {
  const before = await call('GET', '/v1/feeds?limit=100');
  const preview = await call('POST', '/v1/feeds/preview', { url: boardUrl, selectors });
  t.equal(preview.status, 200);
  t.equal(preview.json['title'], 'Harbour Gazette — Notices');
  t.equal(preview.json['source_url'], boardUrl);
  t.notOk('id' in preview.json, 'no id: nothing was created');
  const rows = rowsOf(preview.json);
  t.same(rows.slice(1), expectedRows, 'the page’s rows, in page order, after the notice added earlier');
  const first = (preview.json['items'] as { authors: unknown; summary_text: string; full_text_status: string }[])[1];
  t.same(first?.authors, [{ name: 'Harbour master' }]);
  t.equal(first?.summary_text, 'The winter timetable starts on Monday. Download it.');
  const after = await call('GET', '/v1/feeds?limit=100');
  t.equal(after.json['total'], before.json['total'], 'the feed list is unchanged');

  const plain = await call('POST', '/v1/feeds/preview', { url: boardUrl });
  t.equal(plain.status, 200);
  t.same(
    plain.json['followed'],
    { url: `${source.url}/feed.xml`, source: 'advertised' },
    'without selectors it discovers as a create does',
  );

  const refused = await call('POST', '/v1/feeds/preview', { url: `${source.url}/missing` });
  t.equal(refused.status, 402);
  t.match(refused.json['message'], /this was a preview: nothing was created/);
});

t.test('the preview path answers 405 naming only its own methods', async (t) => {
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
    const response = await call(method, '/v1/feeds/preview');
    t.equal(response.status, 405, `${method} is 405`);
    t.equal(response.headers['allow'], 'POST', `${method}: Allow names POST alone`);
    t.equal(codeOf(response.json), 'method_not_allowed');
  }
  const unknown = await call('PUT', '/v1/feeds/AbCdEfGhIjKlMnOp');
  t.equal(unknown.status, 405, 'a feed’s own path keeps its methods');
  t.equal(unknown.headers['allow'], 'DELETE, GET, HEAD, PATCH');
});
