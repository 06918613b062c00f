import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { createGraphqlServer } from '../../src/graphql/yoga.js';
import { buildHttpApp } from '../../src/http/app.js';
import { graphql } from '../graphql/graphql-client.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A source that counts its requests, serves a feed, and answers 500 while `failing`.
let failing = false;
let served = 1;
let requests = 0;
const source = await startFixtureServer((_request, response) => {
  requests += 1;
  if (failing) return void response.writeHead(500, { 'content-type': 'text/plain' }).end('down');
  const items = Array.from({ length: served }, (_, n) => `<item><title>Post ${n + 1}</title><guid>urn:post:${n + 1}</guid></item>`).join(
    '',
  );
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end(`<rss version="2.0"><channel><title>Lifecycle</title>${items}</channel></rss>`);
});
// Time moves only when a test moves it.
let now = Date.parse('2026-11-25T10:00:00.000Z');
const advance = (seconds: number): void => void (now += seconds * 1000);
const env = createTestDeps({ clock: { now: () => new Date(now) } });
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const yoga = createGraphqlServer(env.deps);
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

interface Status {
  state: string;
  next_fetch_at: string | null;
  consecutive_errors: number;
  last_outcome: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
}
const alice = await env.bearer('alice');
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: alice, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
const create = async (): Promise<string> =>
  (await call('POST', '/v1/feeds', { url: `${source.url}/feed.xml?n=${Math.random()}` })).json<{ id: string }>().id;
const statusOf = async (feedId: string): Promise<Status> => (await call('GET', `/v1/feeds/${feedId}`)).json<{ status: Status }>().status;
const settings = (feedId: string, body: unknown) => call('PATCH', `/v1/feeds/${feedId}/settings`, body);
const secondsUntilNext = (status: Status): number => (Date.parse(status.next_fetch_at ?? '') - now) / 1000;

t.test('refresh now fetches at once and answers with what it found and the feed as it left it', async (t) => {
  const feedId = await create();
  advance(60);
  served = 2;
  const before = requests;
  const refreshed = await call('POST', `/v1/feeds/${feedId}/refresh`);
  t.equal(refreshed.statusCode, 200);
  t.match(refreshed.json(), {
    outcome: 'changed',
    items_new: 1,
    items_changed: 0,
    error: null,
    feed: { id: feedId, status: { state: 'active', last_outcome: 'changed' } },
  });
  t.equal(requests, before + 1, 'one fetch of the source');
  t.equal((await call('GET', `/v1/feeds/${feedId}`)).json<{ items: unknown[] }>().items.length, 2, 'the new item is stored');
});

t.test('refresh now is throttled per feed: a second one within 30 s is 429 with Retry-After, and fetches nothing', async (t) => {
  const feedId = await create();
  advance(31);
  t.equal((await call('POST', `/v1/feeds/${feedId}/refresh`)).statusCode, 200);
  advance(10);
  const before = requests;
  const again = await call('POST', `/v1/feeds/${feedId}/refresh`);
  t.equal(again.statusCode, 429);
  t.equal(again.json<{ errors: { code: string }[] }>().errors[0]?.code, 'refresh_throttled');
  t.equal(again.headers['retry-after'], '20', 'says how long to wait');
  t.match(again.json<{ message: string }>().message, /once per 30 s, try again in 20 s/);
  t.equal(requests, before, 'the source was not asked');
  const other = await create();
  advance(30);
  t.equal((await call('POST', `/v1/feeds/${other}/refresh`)).statusCode, 200, 'another feed has its own allowance');
  t.equal((await call('POST', `/v1/feeds/${feedId}/refresh`)).statusCode, 200, 'once the gap has passed it works again');
});

t.test('a failing source: refresh now answers failed with the error, and the status counts it', async (t) => {
  const feedId = await create();
  advance(60);
  failing = true;
  t.teardown(() => void (failing = false));
  const refreshed = (await call('POST', `/v1/feeds/${feedId}/refresh`)).json<{
    outcome: string;
    error: { code: string };
    feed: { status: Status };
  }>();
  t.match(refreshed, {
    outcome: 'failed',
    error: { code: 'upstream_status' },
    feed: { status: { state: 'failing', consecutive_errors: 1 } },
  });
});

t.test('paused: true stops polling and shows paused; paused: false resumes it at once', async (t) => {
  const feedId = await create();
  const paused = await settings(feedId, { paused: true });
  t.equal(paused.statusCode, 200);
  t.match(paused.json(), { paused: true, min_interval: null, filters: { keep: null, block: null } });
  const status = await statusOf(feedId);
  t.equal(status.state, 'paused');
  t.equal(status.next_fetch_at, null, 'nothing is planned');
  advance(3600);
  const before = requests;
  t.equal(await refreshFeed(env.deps, feedId), null, 'a scheduled run left from before the pause does nothing');
  t.equal(requests, before, 'and fetches nothing');
  t.same((await call('GET', `/v1/feeds/${feedId}/settings`)).json(), {
    customAuthor: null,
    sort: 'last_added',
    paused: true,
    min_interval: null,
    filters: { keep: null, block: null },
    full_text: false,
    full_text_rules: null,
    fetch: null,
    selectors: null,
    render: 'auto',
  });

  t.match((await settings(feedId, { paused: false })).json(), { paused: false });
  const resumed = await statusOf(feedId);
  t.equal(resumed.state, 'active');
  t.equal(secondsUntilNext(resumed), 0, 'fetched again now');
  t.ok(await refreshFeed(env.deps, feedId), 'scheduled runs fetch again');
  t.equal(requests, before + 1);
});

t.test('a paused feed can still be refreshed on demand, and stays paused', async (t) => {
  const feedId = await create();
  await settings(feedId, { paused: true });
  advance(60);
  const refreshed = (await call('POST', `/v1/feeds/${feedId}/refresh`)).json<{ outcome: string; feed: { status: Status } }>();
  t.equal(refreshed.outcome, 'unchanged');
  t.match(refreshed.feed.status, { state: 'paused', next_fetch_at: null });
});

t.test('a feed failing for FEEDMILL_FEED_DISABLE_AFTER is disabled with its reason, and polled no more until resumed', async (t) => {
  const feedId = await create();
  failing = true;
  t.teardown(() => void (failing = false));
  advance(60);
  await refreshFeed(env.deps, feedId);
  t.match(await statusOf(feedId), { state: 'failing', consecutive_errors: 1 });
  advance(env.deps.settings.feedDisableAfterSeconds - 1);
  await refreshFeed(env.deps, feedId);
  t.match(await statusOf(feedId), { state: 'failing', consecutive_errors: 2 }, 'not yet: one second short');
  advance(1);
  const outcome = await refreshFeed(env.deps, feedId);
  t.equal(outcome?.nextRunAt, null, 'no next run is planned');
  const disabled = await statusOf(feedId);
  t.match(disabled, { state: 'disabled', consecutive_errors: 3, next_fetch_at: null, disabled_at: new Date(now).toISOString() });
  t.match(disabled.disabled_reason, /^Failing since .*500/, 'the reason says since when and what the source answered');
  const before = requests;
  advance(86_400);
  t.equal(await refreshFeed(env.deps, feedId), null, 'a scheduled run does nothing');
  t.equal(requests, before, 'and fetches nothing');

  failing = false;
  t.match((await settings(feedId, { customAuthor: 'Someone' })).json(), { paused: false });
  t.equal((await statusOf(feedId)).state, 'disabled', 'other settings leave it disabled');
  await settings(feedId, { paused: false });
  const resumed = await statusOf(feedId);
  t.match(
    resumed,
    { state: 'failing', disabled_at: null, disabled_reason: null },
    'paused: false resumes it; it is failing until a fetch succeeds',
  );
  t.equal(secondsUntilNext(resumed), 0, 'fetched again now');
  await refreshFeed(env.deps, feedId);
  t.match(await statusOf(feedId), { state: 'active', consecutive_errors: 0 });
});

t.test('a refresh on demand that succeeds resumes a disabled feed', async (t) => {
  const feedId = await create();
  failing = true;
  t.teardown(() => void (failing = false));
  advance(60);
  await refreshFeed(env.deps, feedId);
  advance(env.deps.settings.feedDisableAfterSeconds);
  await refreshFeed(env.deps, feedId);
  t.equal((await statusOf(feedId)).state, 'disabled');
  failing = false;
  advance(30);
  const refreshed = (await call('POST', `/v1/feeds/${feedId}/refresh`)).json<{ feed: { status: Status } }>();
  t.match(refreshed.feed.status, { state: 'active', consecutive_errors: 0, disabled_at: null });
  t.ok(refreshed.feed.status.next_fetch_at, 'polled on schedule again');
});

t.test('errors back off exponentially up to the ceiling', async (t) => {
  const feedId = await create();
  failing = true;
  t.teardown(() => void (failing = false));
  const waits: number[] = [];
  for (let i = 0; i < 8; i += 1) {
    advance(1);
    await refreshFeed(env.deps, feedId);
    waits.push(secondsUntilNext(await statusOf(feedId)));
  }
  const { minSeconds, maxSeconds } = env.deps.settings.poll;
  t.ok(waits[0]! >= minSeconds * 2 * 0.9 && waits[0]! <= minSeconds * 2 * 1.1, `the first wait is about twice the floor (${waits[0]})`);
  t.ok(waits[2]! > waits[1]! * 1.6 && waits[1]! > waits[0]! * 1.6, `each failure about doubles it (${waits.join(', ')})`);
  t.ok(Math.max(...waits) <= maxSeconds, 'never beyond the ceiling');
  t.ok(waits.at(-1)! >= maxSeconds * 0.9, 'and it reaches the ceiling (less its jitter)');
});

t.test('min_interval: a floor of its own, never below the global floor', async (t) => {
  const feedId = await create();
  const floor = env.deps.settings.poll.minSeconds;
  const below = await settings(feedId, { min_interval: floor - 1 });
  t.equal(below.statusCode, 400);
  t.match(
    below.json<{ message: string }>().message,
    `Expected \`min_interval\` to be a whole number of seconds from the global floor FEEDMILL_POLL_MIN_INTERVAL (${floor}) to 604800, got ${floor - 1}`,
  );
  t.match((await settings(feedId, { min_interval: 900 })).json(), { min_interval: 900 });
  served += 1;
  advance(60);
  await refreshFeed(env.deps, feedId);
  const status = await statusOf(feedId);
  t.equal(status.last_outcome, 'changed');
  t.ok(secondsUntilNext(status) >= 900, `a feed with news waits its own floor (${secondsUntilNext(status)} s)`);
  t.match((await settings(feedId, { min_interval: null })).json(), { min_interval: null }, 'null resets it');
});

t.test('GraphQL: refreshFeed, and paused / minInterval in the settings', async (t) => {
  const feedId = await create();
  advance(60);
  const refreshed = await graphql<{
    refreshFeed: { outcome: string; itemsNew: number; error: null; feed: { id: string; status: { state: string } } };
  }>(yoga, alice, 'mutation ($id: ID!) { refreshFeed(id: $id) { outcome itemsNew error { code } feed { id status { state } } } }', {
    id: feedId,
  });
  t.match(refreshed.data?.refreshFeed, {
    outcome: 'unchanged',
    itemsNew: 0,
    error: null,
    feed: { id: feedId, status: { state: 'ACTIVE' } },
  });
  const throttled = await graphql(yoga, alice, 'mutation ($id: ID!) { refreshFeed(id: $id) { outcome } }', { id: feedId });
  t.equal(throttled.errors?.[0]?.extensions?.code, 'refresh_throttled');
  const paused = await graphql<{ updateFeedSettings: { paused: boolean; minInterval: number | null } }>(
    yoga,
    alice,
    'mutation ($id: ID!) { updateFeedSettings(feedId: $id, input: { paused: true, minInterval: 600 }) { paused minInterval } }',
    { id: feedId },
  );
  t.same(paused.data?.updateFeedSettings, { paused: true, minInterval: 600 });
  const shown = await graphql<{ feed: { status: { state: string; nextFetchAt: string | null } } }>(
    yoga,
    alice,
    'query ($id: ID!) { feed(id: $id) { status { state nextFetchAt } } }',
    { id: feedId },
  );
  t.same(shown.data?.feed.status, { state: 'PAUSED', nextFetchAt: null });
});
