import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import {
  clusterEnv,
  freePort,
  startFeedmill,
  startWorker,
  type FeedmillProcess,
  type WorkerProcess,
} from '../fixtures/feedmill-process.js';
import { callAs, createKey } from '../fixtures/feedmill-service.js';
import { eventually, sleep } from '../fixtures/eventually.js';
import { startGrowingFeeds } from '../fixtures/growing-feeds.js';
import { startRedisServer } from '../fixtures/redis-server.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

/**
 * The cluster under faults: one `feedmill api` and two `feedmill worker` processes on real Cassandra
 * and a Redis of the test's own, 200 feeds that keep growing; one worker is killed mid-run, then
 * Redis restarts empty, then the API is killed. Nothing acknowledged may be lost or doubled.
 */
t.setTimeout(420_000);

const feedCount = 200;
const pollMax = 6;
const lockTimeout = 4;
// A feed may wait one poll interval, plus up to two lock periods when its worker died holding it,
// plus slack for a loaded 2-core machine.
const longestGap = (pollMax + 2 * lockTimeout + 8) * 1000;

/** Runs `work` over `inputs` with at most `width` at once, keeping the order of results. */
async function inBatches<T, R>(inputs: T[], width: number, work: (input: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < inputs.length; i += width) results.push(...(await Promise.all(inputs.slice(i, i + width).map(work))));
  return results;
}

interface ApiItem {
  url: string;
}

interface EventCall {
  id: string;
  feedId: string;
  urls: string[];
}

const run = randomBytes(4).toString('hex');
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-fault-'));
const redis = await startRedisServer();
// One more source than feeds at the start: the last is created after Redis restarts.
const feeds = await startGrowingFeeds(feedCount + 1);
const sink = await startWebhookSink();
const port = await freePort();
const env = {
  ...clusterEnv({ dataDir, keyspace: `fault_${run}`, redisUrl: redis.url }),
  FEEDMILL_PORT: String(port),
  FEEDMILL_POLL_MIN_INTERVAL: '3',
  FEEDMILL_POLL_MAX_INTERVAL: String(pollMax),
  FEEDMILL_JOB_LOCK_TIMEOUT: String(lockTimeout),
};
const withMetricsPort = async (): Promise<Record<string, string>> => ({ ...env, FEEDMILL_METRICS_PORT: String(await freePort()) });

// The API first: it applies the migrations the workers then find done.
let api: FeedmillProcess = await startFeedmill(await withMetricsPort(), 'api');
const workers: WorkerProcess[] = [await startWorker(await withMetricsPort()), await startWorker(await withMetricsPort())];
t.teardown(async () => {
  await api.stop('SIGKILL');
  for (const worker of workers) await worker.stop('SIGKILL');
  await redis.stop();
  await feeds.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// To the API running now: the test restarts it.
const call = callAs(() => api, (await createKey(env, 'fault')).authorization);

const storedItems = async (feedId: string): Promise<ApiItem[]> => {
  const response = await call('GET', `/v1/feeds/${feedId}`);
  if (response.status !== 200) throw new Error(`GET /v1/feeds/${feedId}: ${response.status} ${response.text}`);
  return (response.json as { items: ApiItem[] }).items;
};

const events = (): EventCall[] =>
  sink.calls.map((received) => {
    const event = JSON.parse(received.body) as { id: string; feed: { id: string }; data: { items_new: { url: string }[] } };
    return { id: event.id, feedId: event.feed.id, urls: event.data.items_new.map((item) => item.url) };
  });

/** Event ids that announced each item link as new. */
const announcements = (): Map<string, Set<string>> => {
  const byUrl = new Map<string, Set<string>>();
  for (const event of events()) {
    for (const url of event.urls) byUrl.set(url, (byUrl.get(url) ?? new Set()).add(event.id));
  }
  return byUrl;
};

const webhook = await call('POST', '/v1/webhooks', { url: sink.url });
if (webhook.status !== 200 && webhook.status !== 201) throw new Error(`webhook: ${webhook.status} ${webhook.text}`);

const indexes = Array.from({ length: feedCount }, (_, n) => n);
const feedIds = await inBatches(indexes, 10, async (n) => {
  const response = await call('POST', '/v1/feeds', { url: feeds.url(n) });
  if (response.status !== 200) throw new Error(`POST /v1/feeds for feed ${n}: ${response.status} ${response.text}`);
  return (response.json as { id: string }).id;
});
const createdAt = Date.now();

// Every feed grows six times, 4 s apart; the first worker dies after the second round.
let killedAt = 0;
for (let round = 1; round <= 6; round += 1) {
  await sleep(4_000);
  feeds.grow();
  if (round === 2) {
    killedAt = Date.now();
    await workers[0]?.stop('SIGKILL');
  }
}
const grownAt = Date.now();

t.test('after a worker is killed mid-run, every item arrives once and every change is announced once', async (t) => {
  t.ok(killedAt > createdAt, 'a worker was killed while the feeds grew');
  const missing = async (): Promise<number[]> => {
    const counts = await inBatches(indexes, 20, async (n) => {
      const items = await storedItems(feedIds[n] ?? '');
      return items.length === feeds.links(n).length ? -1 : n;
    });
    return counts.filter((n) => n >= 0);
  };
  let behind: number[] = [];
  await eventually(
    120_000,
    async () => (behind = await missing()).length === 0,
    () => `feeds still missing items: ${behind.slice(0, 10).join(', ')} (${behind.length} in all)`,
  );
  const doubled: string[] = [];
  const wrong: string[] = [];
  for (const n of indexes) {
    const items = await storedItems(feedIds[n] ?? '');
    const urls = items.map((item) => item.url);
    if (new Set(urls).size !== urls.length) doubled.push(`feed ${n}`);
    if ([...urls].sort().join() !== [...feeds.links(n)].sort().join()) wrong.push(`feed ${n}`);
  }
  t.same(doubled, [], 'no item is stored twice');
  t.same(wrong, [], 'every feed holds exactly the items of its source');

  // Items published after creation: six per feed, each to be announced by one event id.
  const announcedLater = indexes.flatMap((n) => feeds.links(n).slice(0, 6));
  let unannounced: string[] = [];
  await eventually(
    60_000,
    async () => {
      const byUrl = announcements();
      unannounced = announcedLater.filter((url) => !byUrl.has(url));
      return unannounced.length === 0;
    },
    () => `${unannounced.length} items never announced, e.g. ${unannounced.slice(0, 3).join(', ')}`,
  );
  const twice = [...announcements()].filter(([, ids]) => ids.size > 1).map(([url]) => url);
  t.same(twice, [], 'no item was announced by two different event ids');
  const byId = new Map<string, string>();
  const conflicting = events().filter((event) => {
    const body = `${event.feedId} ${event.urls.join(' ')}`;
    const seen = byId.get(event.id);
    byId.set(event.id, body);
    return seen !== undefined && seen !== body;
  });
  t.same(conflicting, [], 'an event delivered again (at least once) is the same event');
});

t.test('every feed was refreshed on schedule, with conditional GETs after the first', async (t) => {
  const late: string[] = [];
  const unconditional: string[] = [];
  let worst = 0;
  for (const n of indexes) {
    const times = feeds
      .fetches(n)
      .map((fetch) => fetch.at)
      .filter((at) => at >= createdAt && at <= grownAt);
    const gaps = [createdAt, ...times, grownAt].map((at, i, all) => (i === 0 ? 0 : at - (all[i - 1] ?? at)));
    const longest = Math.max(...gaps);
    worst = Math.max(worst, longest);
    if (longest > longestGap) late.push(`feed ${n} waited ${(longest / 1000).toFixed(1)} s`);
    // The first request is the API's own, when the feed was created.
    if (
      feeds
        .fetches(n)
        .slice(1)
        .some((fetch) => !fetch.conditional)
    )
      unconditional.push(`feed ${n}`);
  }
  t.same(
    late,
    [],
    `no feed waited longer than ${longestGap / 1000} s between two refreshes, across the worker's death (longest: ${(worst / 1000).toFixed(1)} s)`,
  );
  t.same(unconditional, [], 'every refresh after the first carried the validator it was given');
  const after = indexes.filter((n) => feeds.fetches(n).some((fetch) => fetch.at > killedAt + 2 * lockTimeout * 1000));
  const lastFetch = indexes.map((n) => feeds.fetches(n).at(-1)?.at ?? 0);
  t.equal(
    after.length,
    feedCount,
    `the surviving worker took over every feed (last fetches ${((Math.min(...lastFetch) - killedAt) / 1000).toFixed(1)} s to ${((Math.max(...lastFetch) - killedAt) / 1000).toFixed(1)} s after the kill)`,
  );
});

t.test('Redis restarting empty: the queues are rebuilt from the store, and new writes are kept', async (t) => {
  await redis.restartEmpty();
  const callsBefore = sink.calls.length;
  // A write acknowledged after Redis came back, and refreshes of the existing feeds.
  const added = await call('POST', '/v1/feeds', { url: feeds.url(feedCount) });
  t.equal(added.status, 200, added.status === 200 ? 'a feed created after Redis came back is acknowledged' : added.text);
  const renamed = await call('PATCH', `/v1/feeds/${feedIds[1]}`, { title: 'Renamed after Redis' });
  t.equal(renamed.status, 200, renamed.status === 200 ? 'a change after Redis came back is acknowledged' : renamed.text);
  const grown = [2, 3, 4, 5, 6];
  feeds.grow(grown);
  let waiting: number[] = grown;
  await eventually(
    90_000,
    async () => {
      const counts = await Promise.all(
        grown.map(async (n) => ((await storedItems(feedIds[n] ?? '')).length === feeds.links(n).length ? -1 : n)),
      );
      waiting = counts.filter((n) => n >= 0);
      return waiting.length === 0;
    },
    () => `feeds ${waiting.join(', ')} were not refreshed after Redis lost its data`,
  );
  t.pass('feeds are refreshed again after Redis lost every schedule');
  const newest = grown.map((n) => feeds.links(n)[0] ?? '');
  await eventually(
    60_000,
    async () => newest.every((url) => announcements().has(url)),
    () => 'the new items were never announced to the webhook',
  );
  t.ok(sink.calls.length > callsBefore, 'webhook deliveries resumed');
});

t.test('killing the API loses no acknowledged write', async (t) => {
  t.equal(await api.stop('SIGKILL'), null, 'the API was killed');
  api = await startFeedmill(await withMetricsPort(), 'api');
  const listed = await call('GET', '/v1/feeds?limit=1');
  t.equal((listed.json as { total: number }).total, feedCount + 1, 'every created feed is still there');
  const renamed = await call('GET', `/v1/feeds/${feedIds[1]}`);
  t.equal((renamed.json as { title: string }).title, 'Renamed after Redis', 'the change made after Redis restarted is kept');
  const hooks = await call('GET', '/v1/webhooks');
  t.match(hooks.json, { total: 1, data: [{ url: sink.url }] }, 'the webhook is still there');
});
