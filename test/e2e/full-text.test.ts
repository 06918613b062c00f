import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually } from '../fixtures/eventually.js';
import { binaryEnv } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startTeaserSource } from '../fixtures/teaser-source.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

// Full text (issue #26) through the binary over HTTPS: a feed of teasers whose items link to
// article pages full of navigation, sidebars and footers, on a local fixture server.
t.setTimeout(300_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-full-text-'));
const maxWait = 6;
const env = {
  ...(await binaryEnv(dataDir)),
  FEEDMILL_FULL_TEXT_MAX_WAIT: String(maxWait),
  FEEDMILL_FULL_TEXT_PER_REFRESH: '3',
  FEEDMILL_FULL_TEXT_HOST_PAUSE: '0',
  FEEDMILL_FETCH_TIMEOUT: '60',
};

const source = await startTeaserSource(['alpha', 'beta']);
const { items, articleRequests } = source;
const sink = await startWebhookSink();
const { service, call } = await startServiceAs(env, 'alice');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface ApiItem {
  url: string;
  description_html: string;
  description_text: string;
  summary_html: string;
  full_text_status: string;
  full_text_error: { code: string; message: string } | null;
}

const created = await call('POST', '/v1/feeds', { url: source.feedUrl });
const feedId = (created.json as { id: string }).id;
const hook = await call('POST', '/v1/webhooks', { url: sink.url });

const feedItems = async (): Promise<Map<string, ApiItem>> => {
  const feed = (await call('GET', `/v1/feeds/${feedId}`)).json as { items: ApiItem[] };
  return new Map(feed.items.map((item) => [item.url.split('/').at(-1) ?? '', item]));
};
const rss = async (): Promise<string> => (await service.call('GET', `/feeds/${feedId}.xml`)).text;

/** Every `items_new` entry the webhook received, by slug. */
const announced = (): Map<string, { description_text: string }[]> => {
  const seen = new Map<string, { description_text: string }[]>();
  for (const received of sink.calls) {
    const event = JSON.parse(received.body) as { data?: { items_new?: { url: string; description_text: string }[] } };
    for (const item of event.data?.items_new ?? []) {
      const slug = item.url.split('/').at(-1) ?? '';
      seen.set(slug, [...(seen.get(slug) ?? []), item]);
    }
  }
  return seen;
};

let latest = new Map<string, ApiItem>();
const until = async (what: string, check: (items: Map<string, ApiItem>) => boolean): Promise<void> =>
  eventually(
    60_000,
    async () => check((latest = await feedItems())),
    () => `${what}; items: ${JSON.stringify([...latest.values()].map((item) => [item.url, item.full_text_status, item.full_text_error]))}`,
  );

t.test('the feed and the webhook exist; full text is off by default', async (t) => {
  t.equal(created.status, 200, created.text);
  t.equal(hook.status, 200, hook.text);
  const settings = await call('GET', `/v1/feeds/${feedId}/settings`);
  t.match(settings.json, { full_text: false, full_text_rules: null });
});

t.test('a bad full_text_rules is refused with validation_failed, naming the field', async (t) => {
  const refused = await call('PATCH', `/v1/feeds/${feedId}/settings`, { full_text_rules: { content: '' } });
  t.equal(refused.status, 400, refused.text);
  t.match(refused.json, { errors: [{ code: 'validation_failed' }] });
  t.match((refused.json as { message: string }).message, /full_text_rules\.content/);
});

t.test('turning full text on fills in the latest items with their articles, announcing nothing', async (t) => {
  const patched = await call('PATCH', `/v1/feeds/${feedId}/settings`, { full_text: true });
  t.equal(patched.status, 200, patched.text);
  t.match(patched.json, { full_text: true });
  await until('alpha and beta have their articles', (items) =>
    ['alpha', 'beta'].every((slug) => items.get(slug)?.full_text_status === 'ok'),
  );
  const alpha = latest.get('alpha');
  t.match(alpha?.description_html, /ARTICLE-BODY-alpha/);
  t.match(alpha?.description_text, /ARTICLE-BODY-alpha/);
  t.notMatch(alpha?.description_html, /BOILER-/, 'no navigation, sidebar or footer');
  t.match(alpha?.summary_html, /TEASER-alpha/, 'the teaser stays as the summary');
  const hosted = await rss();
  t.match(hosted, /ARTICLE-BODY-beta/, 'the hosted RSS carries the article');
  t.notMatch(hosted, /BOILER-/);
  t.equal(sink.calls.length, 0, 'the fill announced nothing');
});

t.test('new items are announced once, with their article; pending items stay out of the hosted feed', async (t) => {
  items.unshift('gamma', 'pdf-delta', 'slow-epsilon');
  await until('the new items are in', (items) => items.has('slow-epsilon'));
  // The slow page never answers: within FEEDMILL_FULL_TEXT_MAX_WAIT the item is pending, shown by REST only.
  t.equal(latest.get('slow-epsilon')?.full_text_status, 'pending');
  t.match(latest.get('slow-epsilon')?.description_html, /TEASER-slow-epsilon/);
  t.notMatch(await rss(), /slow-epsilon/, 'a pending item is not in the hosted feed');
  await until(
    'gamma is in, pdf-delta failed',
    (items) => items.get('gamma')?.full_text_status === 'ok' && items.get('pdf-delta')?.full_text_status === 'failed',
  );
  t.match(latest.get('pdf-delta')?.full_text_error, { code: 'unsupported_content_type' });
  t.match(latest.get('pdf-delta')?.description_html, /TEASER-pdf-delta/, 'a failed item shows its teaser');
  await eventually(
    30_000,
    async () => announced().has('gamma') && announced().has('pdf-delta'),
    () => 'gamma and pdf-delta announced',
  );
  t.match(announced().get('gamma')?.[0]?.description_text, /ARTICLE-BODY-gamma/, 'announced with the article');
  t.notMatch(announced().get('gamma')?.[0]?.description_text, /TEASER/, 'never the teaser first');
  t.match(announced().get('pdf-delta')?.[0]?.description_text, /TEASER-pdf-delta/);
});

t.test('past FEEDMILL_FULL_TEXT_MAX_WAIT an item is announced with its teaser, failed (timeout)', async (t) => {
  await eventually(
    maxWait * 1000 + 30_000,
    async () => announced().has('slow-epsilon'),
    () => 'slow-epsilon announced',
  );
  t.match(announced().get('slow-epsilon')?.[0]?.description_text, /TEASER-slow-epsilon/);
  await until('slow-epsilon failed', (items) => items.get('slow-epsilon')?.full_text_status === 'failed');
  t.match(latest.get('slow-epsilon')?.full_text_error, { code: 'timeout' });
  t.match(await rss(), /TEASER-slow-epsilon/, 'once announced, it is in the hosted feed with its teaser');
});

t.test('past the per-refresh cap, new items keep their teasers and are announced at once', async (t) => {
  const before = [...articleRequests.values()].reduce((a, b) => a + b, 0);
  items.unshift('zeta', 'eta', 'theta', 'iota');
  await until(
    'three of the four have their articles',
    (items) => ['zeta', 'eta', 'theta', 'iota'].filter((slug) => items.get(slug)?.full_text_status === 'ok').length === 3,
  );
  const skipped = ['zeta', 'eta', 'theta', 'iota'].filter((slug) => latest.get(slug)?.full_text_status === 'skipped');
  t.equal(skipped.length, 1, 'FEEDMILL_FULL_TEXT_PER_REFRESH=3: the fourth is skipped');
  t.equal(articleRequests.get(skipped[0] ?? ''), undefined, 'its page is never fetched');
  const after = [...articleRequests.values()].reduce((a, b) => a + b, 0);
  t.ok(after - before >= 3);
  await eventually(
    30_000,
    async () => ['zeta', 'eta', 'theta', 'iota'].every((slug) => announced().has(slug)),
    () => 'all four announced',
  );
});

t.test('each item is announced exactly once, and each page fetched once', async (t) => {
  // A few more refreshes of an unchanged source: nothing new is announced, no page fetched again.
  const calls = sink.calls.length;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  t.equal(sink.calls.length, calls);
  for (const [slug, entries] of announced()) t.equal(entries.length, 1, `${slug} announced once`);
  t.notOk(announced().has('alpha') || announced().has('beta'), 'the filled-in items were never announced');
  for (const slug of ['alpha', 'beta', 'gamma', 'zeta']) t.equal(articleRequests.get(slug), 1, `${slug} fetched once`);
});

t.test('turning full text off restores the teasers without a fetch or an announcement', async (t) => {
  // The held page may still be retried (its wait ended, its fetch goes on); no other page is fetched.
  const fetchedPages = (): number =>
    [...articleRequests.entries()].filter(([slug]) => !slug.startsWith('slow')).reduce((a, [, n]) => a + n, 0);
  const requests = fetchedPages();
  const calls = sink.calls.length;
  const patched = await call('PATCH', `/v1/feeds/${feedId}/settings`, { full_text: false });
  t.equal(patched.status, 200, patched.text);
  const items = await feedItems();
  t.match(items.get('gamma'), { full_text_status: 'skipped', full_text_error: null });
  t.match(items.get('gamma')?.description_html, /TEASER-gamma/);
  t.notMatch(await rss(), /ARTICLE-BODY-/, 'the hosted feed shows teasers again');
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  t.equal(sink.calls.length, calls, 'nothing announced');
  t.equal(fetchedPages(), requests, 'no page fetched');
});
