import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import {
  clusterEnv,
  freePort,
  startFeedmill,
  startWorker,
  testContactPoints,
  type FeedmillProcess,
  type WorkerProcess,
} from '../fixtures/feedmill-process.js';
import { callAs, createKey } from '../fixtures/feedmill-service.js';
import { eventually, sleep } from '../fixtures/eventually.js';
import { startGrowingFeeds } from '../fixtures/growing-feeds.js';
import { startRedisServer } from '../fixtures/redis-server.js';
import { startTcpProxy } from '../fixtures/tcp-proxy.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

/**
 * The cluster through the outages an operator meets, each a test, in order, on one cluster: one
 * `feedmill api` and two `feedmill worker` processes on a Redis of the test's own and on the suite's
 * Cassandra behind a TCP proxy the test can cut (Cassandra itself is shared by other tests, so the
 * outage is made between it and this cluster). Throughout: no acknowledged write lost, every item
 * announced at least once and only ever under one event id, recovery without a manual step, and
 * `/readyz` 503 during an outage and 200 after it. (cluster-fault.test.ts covers a worker killed
 * mid-refresh, Redis restarting empty while idle, and the API killed while idle.)
 */
const [cassandraHost = '127.0.0.1', cassandraPort = '9042'] = (testContactPoints().split(',')[0] ?? '').split(':');
t.setTimeout(900_000);

const feedCount = 20;
// Sources created while the API is killed mid-create.
const createdLater = 12;
const lockTimeout = 4;

const run = randomBytes(4).toString('hex');
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-outage-'));
const redis = await startRedisServer();
const cassandra = await startTcpProxy(Number(cassandraPort), cassandraHost);
const feeds = await startGrowingFeeds(feedCount + createdLater);
const sink = await startWebhookSink();
const env = {
  // Cassandra through a proxy the test can cut.
  ...clusterEnv({
    dataDir,
    keyspace: `outage_${run}`,
    redisUrl: redis.url,
    contactPoints: `127.0.0.1:${cassandra.port}`,
    logLevel: 'error',
  }),
  FEEDMILL_PORT: String(await freePort()),
  FEEDMILL_POLL_MIN_INTERVAL: '2',
  FEEDMILL_POLL_MAX_INTERVAL: '4',
  FEEDMILL_JOB_LOCK_TIMEOUT: String(lockTimeout),
};
const withMetricsPort = async (): Promise<Record<string, string>> => ({ ...env, FEEDMILL_METRICS_PORT: String(await freePort()) });

let api: FeedmillProcess = await startFeedmill(await withMetricsPort(), 'api');
const workerEnvs = [await withMetricsPort(), await withMetricsPort()];
const workers: WorkerProcess[] = await Promise.all(workerEnvs.map((workerEnv) => startWorker(workerEnv)));
t.teardown(async () => {
  await api.stop('SIGKILL');
  for (const worker of workers) await worker.stop('SIGKILL');
  await redis.stop();
  await cassandra.close();
  await feeds.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// To the API running now: the test restarts it.
const call = callAs(() => api, (await createKey(env, 'outage')).authorization);

/** `/readyz` of the API (over HTTPS) and of every worker (its probe port). */
const readiness = async (): Promise<number[]> => {
  const apiStatus = await api.call('GET', '/readyz').then(
    (response) => response.status,
    () => 0,
  );
  const workerStatus = await Promise.all(
    workerEnvs.map((workerEnv) =>
      fetch(`http://127.0.0.1:${workerEnv.FEEDMILL_METRICS_PORT}/readyz`).then(
        (response) => response.status,
        () => 0,
      ),
    ),
  );
  return [apiStatus, ...workerStatus];
};

const webhook = await call('POST', '/v1/webhooks', { url: sink.url });
if (webhook.status !== 200 && webhook.status !== 201) throw new Error(`webhook: ${webhook.status} ${webhook.text}`);

const feedIds: string[] = [];
for (let n = 0; n < feedCount; n += 1) {
  const response = await call('POST', '/v1/feeds', { url: feeds.url(n) });
  if (response.status !== 200) throw new Error(`POST /v1/feeds for feed ${n}: ${response.status} ${response.text}`);
  feedIds.push((response.json as { id: string }).id);
}
/** Items a feed had when it was created: its baseline, never announced. */
const baseline = new Set(Array.from({ length: feedCount }, (_, n) => feeds.links(n)).flat());

/** Event ids that announced each item link as new. */
const announcements = (): Map<string, Set<string>> => {
  const byUrl = new Map<string, Set<string>>();
  for (const received of sink.calls) {
    const event = JSON.parse(received.body) as { id: string; data: { items_new: { url: string }[] } };
    for (const item of event.data.items_new) byUrl.set(item.url, (byUrl.get(item.url) ?? new Set()).add(event.id));
  }
  return byUrl;
};

/**
 * Every feed of `ids` holds exactly the items of its source, every item published after creation
 * was announced, and none under two event ids.
 */
async function everythingArrivedOnce(t: Test, ids: readonly (readonly [number, string])[], within = 240_000): Promise<void> {
  let behind: number[] = [];
  await eventually(
    within,
    async () => {
      const counts = await Promise.all(
        ids.map(async ([n, id]) => {
          const response = await call('GET', `/v1/feeds/${id}`);
          const urls = response.status === 200 ? (response.json as { items: { url: string }[] }).items.map((item) => item.url) : [];
          return [...urls].sort().join() === [...feeds.links(n)].sort().join() ? -1 : n;
        }),
      );
      behind = counts.filter((n) => n >= 0);
      return behind.length === 0;
    },
    () => `feeds still without their source's items: ${behind.join(', ')}`,
  );
  t.pass(`every feed holds exactly its source's items (${ids.length} feeds)`);
  const expected = ids.flatMap(([n]) => feeds.links(n)).filter((url) => !baseline.has(url));
  let unannounced: string[] = [];
  await eventually(
    within,
    async () => {
      const byUrl = announcements();
      unannounced = expected.filter((url) => !byUrl.has(url));
      return unannounced.length === 0;
    },
    () => `${unannounced.length} items never announced, e.g. ${unannounced.slice(0, 3).join(', ')}`,
  );
  t.pass(`every item published since was announced (${expected.length} items)`);
  const twice = [...announcements()].filter(([, eventIds]) => eventIds.size > 1).map(([url]) => url);
  t.same(twice, [], 'no item was announced by two different event ids');
}

const allFeeds = (): [number, string][] => feedIds.map((id, n) => [n, id]);

t.test('a worker killed with SIGKILL while it delivers: the other delivers every event, each under its one id', async (t) => {
  // A slow receiver keeps deliveries in flight; a new item in every feed makes twenty of them.
  sink.delay(2_000);
  const callsBefore = sink.calls.length;
  feeds.grow();
  await eventually(
    60_000,
    async () => sink.calls.length >= callsBefore + 2,
    () => 'no delivery started',
  );
  t.equal(await workers[0]?.stop('SIGKILL'), null, 'the first worker was killed mid-delivery');
  sink.delay(0);
  try {
    await everythingArrivedOnce(t, allFeeds());
  } finally {
    workers[0] = await startWorker(workerEnvs[0] ?? {});
  }
});

t.test('Redis killed during refreshes and deliveries, then back empty: not ready meanwhile, nothing lost after', async (t) => {
  sink.delay(1_000);
  feeds.grow();
  await sleep(1_500);
  await redis.kill();
  try {
    let seen: number[] = [];
    await eventually(
      60_000,
      async () => (seen = await readiness()).every((status) => status === 503),
      () => `readiness stayed ${JSON.stringify(seen)}`,
    );
    t.pass('/readyz answers 503 on the API and on both workers while Redis is away');
    const read = await call('GET', `/v1/feeds/${feedIds[0]}`);
    t.equal(read.status, 200, 'reads from the store still answer');
    const hosted = await api.call('GET', `/feeds/${feedIds[0]}.xml`);
    t.equal(hosted.status, 200, 'hosted feeds still answer');
    feeds.grow();
    await sleep(3_000);
  } finally {
    await redis.start();
    sink.delay(0);
  }
  await eventually(
    60_000,
    async () => (await readiness()).every((status) => status === 200),
    () => 'readiness did not come back',
  );
  t.pass('/readyz answers 200 again once Redis is back, with no restart of any process');
  await everythingArrivedOnce(t, allFeeds());
});

t.test('Cassandra unreachable during refreshes, then back: not ready meanwhile, errors in our shape, nothing lost after', async (t) => {
  feeds.grow();
  await sleep(1_000);
  cassandra.cut();
  try {
    let seen: number[] = [];
    await eventually(
      60_000,
      async () => (seen = await readiness()).every((status) => status === 503),
      () => `readiness stayed ${JSON.stringify(seen)}`,
    );
    t.pass('/readyz answers 503 on the API and on both workers while Cassandra is away');
    // A feed the API process holds in memory may still be served (the read cache, dropped by change
    // notices, is not stale while nothing can write); a read that needs the store cannot be.
    const read = await call('GET', '/v1/feeds');
    t.equal(read.status, 503, `a read of the store answers 503 while it is away (got ${read.status}: ${read.text.slice(0, 200)})`);
    t.match(read.json, { statusCode: 503, errors: [{ code: 'store_unavailable' }] }, 'in our error shape, saying what to do');
    feeds.grow();
    await sleep(3_000);
  } finally {
    cassandra.restore();
  }
  await eventually(
    90_000,
    async () => (await readiness()).every((status) => status === 200),
    () => 'readiness did not come back',
  );
  t.pass('/readyz answers 200 again once Cassandra is back, with no restart of any process');
  await everythingArrivedOnce(t, allFeeds());
});

t.test('the API killed with SIGKILL mid-create: every create it acknowledged survives, with its items', async (t) => {
  let answered = 0;
  const attempts = Array.from({ length: createdLater }, (_, i) => feedCount + i).map(async (n, i) => {
    // Spread over the moment of the kill: some land before it, some are cut off.
    await sleep(i * 150);
    return call('POST', '/v1/feeds', { url: feeds.url(n) }).then(
      (response) => ((answered += 1), { n, response }),
      () => ({ n, response: undefined }),
    );
  });
  await eventually(
    120_000,
    async () => answered > 0,
    () => 'no create was answered',
  );
  t.equal(await api.stop('SIGKILL'), null, 'the API was killed');
  const outcomes = await Promise.all(attempts);
  const acknowledged = outcomes.flatMap(({ n, response }) =>
    response?.status === 200 ? [[n, (response.json as { id: string }).id] as const] : [],
  );
  for (const [n] of acknowledged) for (const url of feeds.links(n)) baseline.add(url);
  t.ok(
    acknowledged.length > 0 && acknowledged.length < createdLater,
    `some creates were acknowledged before the kill and some were cut off (${acknowledged.length} of ${createdLater})`,
  );
  api = await startFeedmill(await withMetricsPort(), 'api');
  for (const [n, id] of acknowledged) {
    const response = await call('GET', `/v1/feeds/${id}`);
    t.equal(response.status, 200, `acknowledged feed ${n} is there`);
  }
  feeds.grow(acknowledged.map(([n]) => n));
  await everythingArrivedOnce(t, acknowledged);
});
