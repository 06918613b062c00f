import { createHash, randomBytes } from 'node:crypto';
import t, { type Test } from 'tap';
import { createFeed, previewFeed } from '../../src/app/create-feed.js';
import { updateFeedSettings } from '../../src/app/feed-settings.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { feedItems } from '../../src/app/shown-items.js';
import type { Principal } from '../../src/domain/api-key.js';
import type { Feed } from '../../src/domain/feed.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import { feedHealth } from '../../src/domain/feed-health.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Creating a feed and refreshing one are one pipeline (fetch → parse → identify → diff → store →
// announce → plan). These tests read one source both ways — feed A is created from it, feed B is
// created from an earlier state of it and then refreshed — and expect the same feed either way.

const alice: Principal = { accountId: 'alice', keyId: 'fmk_alice', scopes: ['read', 'write'] };
const bob: Principal = { accountId: 'bob', keyId: 'fmk_bob', scopes: ['read', 'write'] };

interface Document {
  contentType: string;
  body: string;
}

/** One source address whose document the test swaps; it answers conditional GETs and records them. */
async function startSource(t: Test, path: string) {
  let document: Document = { contentType: 'text/plain', body: '' };
  // A document keeps the Last-Modified of when it was first served, as a real source's would.
  const versions = new Map<string, number>();
  const conditional: { ifNoneMatch?: string; ifModifiedSince?: string }[] = [];
  const server = await startFixtureServer((request, response) => {
    if (request.url !== path) return void response.writeHead(404).end();
    const etag = `"${createHash('sha1').update(document.body).digest('hex')}"`;
    const lastModified = new Date(Date.UTC(2026, 10, 1) + (versions.get(document.body) ?? 0) * 60_000).toUTCString();
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    if (ifNoneMatch !== undefined || ifModifiedSince !== undefined) conditional.push({ ifNoneMatch, ifModifiedSince });
    const headers = { etag, 'last-modified': lastModified, 'cache-control': 'max-age=900' };
    if (ifNoneMatch === etag) return void response.writeHead(304, headers).end();
    response.writeHead(200, { ...headers, 'content-type': document.contentType }).end(document.body);
  });
  t.teardown(server.close);
  return {
    url: `${server.url}${path}`,
    conditional,
    serve(next: Document): void {
      document = next;
      if (!versions.has(next.body)) versions.set(next.body, versions.size + 1);
    },
  };
}

/**
 * The real embedded adapters, with a clock that stands still and a fixed jitter (the poll plan
 * reads one random byte), so two runs that saw the same document plan the same next fetch.
 */
function pipelineDeps(t: Test) {
  const at = new Date('2026-11-25T03:00:00.000Z');
  const random = (size: number): Buffer => (size === 1 ? Buffer.from([128]) : randomBytes(size));
  const env = createTestDeps({ clock: { now: () => new Date(at) }, random });
  t.teardown(() => env.close());
  const events: FeedEventEnvelope[] = [];
  for (const { accountId } of [alice, bob]) env.deps.bus.subscribe(accountId, (envelope) => void events.push(envelope));
  return { deps: env.deps, events };
}

/** What a feed holds and shows, less what names the feed itself (its id, account, creation). */
async function readBack(deps: ReturnType<typeof pipelineDeps>['deps'], id: string) {
  const feed = await deps.feeds.getById(id);
  if (!feed) throw new Error(`feed ${id} is gone`);
  const stored = await deps.items.list(id, 'last_added', 100);
  const items = stored.map(({ feedId: _feedId, ...item }) => item).sort((a, b) => a.key.localeCompare(b.key));
  return { feed, fetchUrl: feed.fetchUrl, fetch: feed.fetch, health: feedHealth(feed), items };
}

const shownTitles = async (deps: ReturnType<typeof pipelineDeps>['deps'], feed: Feed): Promise<string[]> =>
  (await feedItems(deps, feed, 'last_added')).map((item) => item.title).sort();

/**
 * Reads `full` both ways and compares. Returns both read-backs for the case's own assertions.
 */
async function createdAndRefreshed(t: Test, path: string, first: Document, full: Document) {
  const { deps, events } = pipelineDeps(t);
  const source = await startSource(t, path);

  source.serve(full);
  const preview = await previewFeed(deps, { url: source.url });
  t.equal((await deps.feeds.list(alice.accountId, { limit: 10, offset: 0 })).total, 0, 'a preview stores nothing');
  const created = await createFeed(deps, alice, { url: source.url });

  source.serve(first);
  const later = await createFeed(deps, bob, { url: source.url });
  const baseline = await readBack(deps, later.feed.id);
  t.equal(baseline.fetch.lastStatus, 'changed', 'the first run of a feed counts as a change, whatever it found');
  t.same(events, [], 'creating a feed announces nothing: its first items are the baseline');
  source.serve(full);
  const refreshed = await refreshFeed(deps, later.feed.id);
  t.equal(refreshed?.status, 'changed');

  const a = await readBack(deps, created.feed.id);
  const b = await readBack(deps, later.feed.id);
  t.ok(a.items.length > 0, 'the source has items');
  t.same(b.items, a.items, 'the same items under the same identities, content hashes and dates');
  t.same(b.fetch, a.fetch, 'the same fetch state: reader, validators, body hash, outcome, streaks, next fetch');
  t.equal(b.fetchUrl, a.fetchUrl);
  t.same(b.health, a.health, 'the same health');
  t.match(a.health, { state: 'active', lastOutcome: 'changed', consecutiveErrors: 0, lastError: null });
  t.same(
    preview.items.map((item) => item.title).sort(),
    a.items.map((item) => item.title).sort(),
    'a preview shows the items a create stores',
  );
  t.same(
    events.map((envelope) => envelope.feedId),
    [later.feed.id],
    'only the refresh announced its news',
  );

  // Validators stored either way make the next refresh of both a conditional GET the source answers with 304.
  source.conditional.length = 0;
  t.equal((await refreshFeed(deps, created.feed.id))?.status, 'not_modified');
  t.equal((await refreshFeed(deps, later.feed.id))?.status, 'not_modified');
  const validators = { ifNoneMatch: a.fetch.etag, ifModifiedSince: a.fetch.lastModified };
  t.ok(validators.ifNoneMatch && validators.ifModifiedSince, 'both validators are stored');
  t.same(source.conditional, [validators, validators], 'both feeds sent the ETag and the Last-Modified they stored');
  return { deps, a, b };
}

const rss = (items: string): Document => ({
  contentType: 'application/rss+xml; charset=utf-8',
  body:
    '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Pipeline</title>' +
    `<link>https://pipeline.example/</link><description>d</description>${items}</channel></rss>`,
});
const rssItem = (n: number, category: string): string =>
  `<item><title>Post ${n}</title><link>https://pipeline.example/posts/${n}</link><guid>https://pipeline.example/posts/${n}</guid>` +
  `<pubDate>${new Date(Date.UTC(2026, 9, n, 12)).toUTCString()}</pubDate><category>${category}</category>` +
  `<description>&lt;p&gt;Post ${n}&lt;/p&gt;</description></item>`;

t.test('a feed created from a source and one refreshed to it hold the same items, state and health', async (t) => {
  // The document repeats its newest item: both ways keep it once.
  const full = rss(rssItem(3, 'news') + rssItem(3, 'news') + rssItem(2, 'ads') + rssItem(1, 'news'));
  const { deps, a, b } = await createdAndRefreshed(t, '/feed.xml', rss(''), full);
  t.equal(a.items.length, 3, 'a repeated item is stored once');
  t.equal(a.fetch.reader, 'feed');

  // Filters apply to the items either way arrived by: the same ones are dropped.
  const blockAds = { block: { field: 'category', op: 'contains', value: 'ads' } };
  await updateFeedSettings(deps, alice, a.feed.id, { filters: blockAds });
  await updateFeedSettings(deps, bob, b.feed.id, { filters: blockAds });
  const shown = async (id: string): Promise<string[]> => shownTitles(deps, (await deps.feeds.getById(id)) ?? a.feed);
  const [shownA, shownB] = [await shown(a.feed.id), await shown(b.feed.id)];
  t.same(shownA, ['Post 1', 'Post 3']);
  t.same(shownB, shownA);
});

t.test('a web page read as a page gives the same items by a create and by a refresh', async (t) => {
  const entry = (slug: string, title: string, text: string): string =>
    `<div class="h-entry"><a class="u-url p-name" href="/2024/${slug}">${title}</a><div class="e-content"><p>${text}</p></div></div>`;
  const page = (entries: string): Document => ({
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><title>Notes</title></head><body><div class="h-feed">${entries}</div></body></html>`,
  });
  const bells = entry('06/on-bells', 'On bells', 'Bells are louder than you think.');
  const clocks = entry('05/on-clocks', 'On clocks', 'Clocks are quieter than you think.');
  const { a } = await createdAndRefreshed(t, '/notes/', page(bells), page(bells + clocks));
  t.equal(a.fetch.reader, 'page', 'the page is read as a page either way');
  t.same(a.items.map((item) => item.title).sort(), ['On bells', 'On clocks']);
});
