/**
 * `npm run bench -- soak`: a cluster (`feedmill api` and two `feedmill worker` processes on the
 * project's Redis and Cassandra) under mixed load for FEEDMILL_BENCH_SOAK_MINUTES: feeds of a local
 * fixture polled (one in ten publishes an item on every poll, a few answer late), hosted documents and
 * REST reads, a webhook for every feed to a local receiver, live subscribers (graphql-ws and
 * `/v1/events`), and a feed created and one deleted every FEEDMILL_BENCH_SOAK_CHURN_SECONDS. Every
 * FEEDMILL_BENCH_SOAK_SAMPLE_SECONDS it reads each process's heap (its /metrics), RSS and open file
 * descriptors (/proc), and Redis's memory. Reports growth as the mean of the last half against the
 * mean of the first, after the warm-up (goal < 10%), errors, and each announcement heard on the bus that did not reach
 * the webhook or a subscriber exactly once.
 *
 * Environment: FEEDMILL_BENCH_SOAK_MINUTES (60), FEEDMILL_BENCH_SOAK_WARMUP_MINUTES (5),
 * FEEDMILL_BENCH_SOAK_SAMPLE_SECONDS (60), FEEDMILL_BENCH_SOAK_FEEDS (500),
 * FEEDMILL_BENCH_SOAK_INTERVAL (seconds between a feed's polls, 60), FEEDMILL_BENCH_SOAK_READS
 * (requests per second, 10), FEEDMILL_BENCH_SOAK_CHURN_SECONDS (10), FEEDMILL_BENCH_SOAK_SUBSCRIBERS
 * (100; at most 20 of them `/v1/events` streams, the cap per account and process),
 * FEEDMILL_BENCH_CASSANDRA, FEEDMILL_BENCH_REDIS_URL (`redis://127.0.0.1:6379`).
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { channelOfDatabase } from '../src/adapters/redis-bus/index.js';
import { clusterServices } from './cluster-services.js';
import type { FromChild, SubscriberSpec, ToChild } from './events/cluster-protocol.js';
import { formatRows } from './poll/table.js';
import { startCluster } from './scale/cluster.js';
import { whole } from './scale/env.js';
import { startScaleFixture, type FeedKind } from './scale/fixture.js';
import { startCountingSink } from './soak/sink.js';
import { createFeeds, createWebhook } from './soak/setup.js';
import { redisUsage, shapeGrowth } from './scale/redis-usage.js';
import { growthTable, sampleTable, takeSamples, type Sample, type Watched } from './soak/samples.js';
import { startTraffic } from './soak/traffic.js';

export type SoakEnv = Record<string, string | undefined>;

const subscriberChild = fileURLToPath(new URL('./events/cluster-child.js', import.meta.url));
/** Everything announced after the run's end has this long to arrive before it counts as lost. */
const settleMs = 15_000;

/** The soak's own mix: one feed in ten changes on every poll, one in fifty answers late; churned feeds never change. */
const soakKind =
  (feeds: number) =>
  (n: number): FeedKind =>
    n >= feeds ? 'not_modified' : n % 10 === 0 ? 'changed' : n % 50 === 7 ? 'slow' : 'not_modified';

export async function runSoak(env: SoakEnv): Promise<void> {
  const minutes = whole(env.FEEDMILL_BENCH_SOAK_MINUTES, 60);
  const warmup = whole(env.FEEDMILL_BENCH_SOAK_WARMUP_MINUTES, 5, 0);
  const sampleSeconds = whole(env.FEEDMILL_BENCH_SOAK_SAMPLE_SECONDS, 60);
  const feedCount = whole(env.FEEDMILL_BENCH_SOAK_FEEDS, 500);
  const interval = String(whole(env.FEEDMILL_BENCH_SOAK_INTERVAL, 60));
  const churnSeconds = whole(env.FEEDMILL_BENCH_SOAK_CHURN_SECONDS, 10);
  const subscribers = whole(env.FEEDMILL_BENCH_SOAK_SUBSCRIBERS, 100, 0);
  const settings = {
    ...clusterServices(env),
  };
  const churnCapacity = Math.ceil((minutes * 60) / churnSeconds) + 10;
  const fixture = await startScaleFixture(feedCount + churnCapacity, 2_000, soakKind(feedCount));
  let secret = '';
  const sink = await startCountingSink(() => secret);
  const cluster = await startCluster(settings, 'soak', {
    FEEDMILL_POLL_MIN_INTERVAL: interval,
    FEEDMILL_POLL_MAX_INTERVAL: interval,
    FEEDMILL_GRAPHQL_SUBSCRIPTIONS_PER_ACCOUNT: String(Math.max(100, subscribers)),
    FEEDMILL_GRAPHQL_CONNECTIONS_PER_KEY: String(Math.max(20, subscribers)),
  });
  const bus = new Redis(cluster.redisUrl);
  const child = fork(subscriberChild, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const fromChild = (type: FromChild['type']): Promise<FromChild> =>
    new Promise((resolve, reject) => {
      const listen = (message: FromChild): void => {
        if (message.type === 'failed') reject(new Error(message.message));
        if (message.type !== type) return;
        child.off('message', listen);
        resolve(message);
      };
      child.on('message', listen);
    });
  const loadBefore = loadavg();
  try {
    process.stderr.write(`soak: creating ${feedCount} feeds, a webhook, two workers\n`);
    const feeds = await createFeeds(
      cluster,
      Array.from({ length: feedCount }, (_, n) => fixture.feedUrl(n)),
    );
    secret = await createWebhook(cluster, sink.url);
    await cluster.addWorker();
    await cluster.addWorker();
    const ours = new Set(feeds);
    let next = feedCount;
    const announced = new Map<string, number>();
    await bus.subscribe(channelOfDatabase('feedmill:events', bus.options.db));
    bus.on('message', (_channel: string, message: string) => {
      const envelope = JSON.parse(message) as { accountId: string; event: { id: string } };
      if (envelope.accountId === 'bench-soak') announced.set(envelope.event.id, Date.now());
    });
    const sse = Math.min(20, Math.floor(subscribers / 5));
    const connection = { origin: cluster.origin, authorization: cluster.authorization };
    const specs: SubscriberSpec[] = Array.from({ length: subscribers }, (_, n) =>
      n < sse ? { kind: 'sse', ...connection } : { kind: 'ws', ...connection, query: 'subscription { feedUpdate { id } }' },
    );
    const opened = fromChild('opened');
    const open: ToChild = { type: 'open', subscribers: specs, ca: cluster.ca, concurrency: 10 };
    child.send(open);
    await opened;
    const traffic = startTraffic({
      origin: cluster.origin,
      ca: cluster.ca,
      authorization: cluster.authorization,
      feeds,
      readsPerSecond: whole(env.FEEDMILL_BENCH_SOAK_READS, 10),
      churnSeconds,
      nextUrl: () => fixture.feedUrl(next++),
    });
    const watched: Watched[] = [
      ...cluster.apis.map((api) => ({ name: 'api', pid: api.pid ?? -1, metricsUrl: cluster.metricsUrls.get(api.pid ?? -1) })),
      ...cluster.workers.map((worker, n) => ({
        name: `worker ${n + 1}`,
        pid: worker.pid ?? -1,
        metricsUrl: cluster.metricsUrls.get(worker.pid ?? -1),
      })),
    ];
    const samples: Sample[] = [...(await takeSamples(0, watched, cluster.redisUrl))];
    const redisAtStart = await redisUsage(cluster.redisUrl);
    const started = Date.now();
    process.stderr.write(`soak: ${minutes} min of mixed load, sampling every ${sampleSeconds} s\n`);
    for (let at = sampleSeconds; at <= minutes * 60; at += sampleSeconds) {
      await sleep(Math.max(0, started + at * 1000 - Date.now()));
      const batch = await takeSamples(at / 60, watched, cluster.redisUrl);
      samples.push(...batch);
      process.stderr.write(
        `  ${(at / 60).toFixed(1)} min: ${batch.map((s) => `${s.name} ${s.rssMb.toFixed(0)} MB/${s.fds}`).join(', ')}\n`,
      );
    }
    const ended = Date.now();
    const redisGrowth = shapeGrowth(redisAtStart, await redisUsage(cluster.redisUrl));
    await traffic.stop();
    await sleep(settleMs);
    child.send({ type: 'report' } satisfies ToChild);
    const report = (await fromChild('report')) as Extract<FromChild, { type: 'report' }>;
    // Both paths together: every subscriber, stream or WebSocket, hears every event of the account.
    const received = new Map<string, { received: number; duplicates: number }>();
    for (const event of report.events) {
      const entry = received.get(event.eventId) ?? { received: 0, duplicates: 0 };
      received.set(event.eventId, { received: entry.received + event.received, duplicates: entry.duplicates + event.duplicates });
    }
    let lostWebhook = 0;
    let duplicateWebhook = 0;
    let lostSubscriber = 0;
    let duplicateSubscriber = 0;
    let counted = 0;
    for (const [eventId, at] of announced) {
      if (at < started || at > ended) continue;
      counted += 1;
      const deliveries = sink.deliveries.get(eventId) ?? 0;
      if (deliveries === 0) lostWebhook += 1;
      duplicateWebhook += Math.max(0, deliveries - 1);
      lostSubscriber += subscribers - (received.get(eventId)?.received ?? 0);
      duplicateSubscriber += received.get(eventId)?.duplicates ?? 0;
    }
    const { table, worst } = growthTable(samples, warmup, minutes);
    console.log(
      `soak: ${minutes} min, api + 2 workers, ${feedCount} feeds polled every ${interval} s, ${subscribers} subscribers (${sse} /v1/events), ${ours.size} feeds at start`,
    );
    console.log(sampleTable(samples));
    console.log(`growth: mean of the last half against the mean of the first, after ${warmup} min of warm-up (goal < 10%)`);
    console.log(table);
    console.log('Redis keys of this deployment, growth from the start of the load to its end, by key shape:');
    for (const line of redisGrowth) console.log(`  ${line}`);
    const requests = [...traffic.counts].map(([kind, statuses]) => [
      kind,
      Object.entries(statuses)
        .map(([status, n]) => `${status} ${n}`)
        .join(', '),
    ]);
    console.log(formatRows(['request', 'answers'], requests));
    console.log(
      `announcements on the bus: ${counted}; webhook lost ${lostWebhook}, duplicated ${duplicateWebhook}, bad signatures ${sink.badSignatures}; subscriber deliveries missing ${lostSubscriber}, duplicated ${duplicateSubscriber}; subscriber problems ${report.failures.length}${report.failures[0] ? ` (first: ${report.failures[0]})` : ''}; request errors ${traffic.errors}`,
    );
    const load = (values: number[]): string => values.map((value) => value.toFixed(2)).join(' ');
    console.log(`load average (1/5/15 min) before: ${load(loadBefore)}, after: ${load(loadavg())}`);
    const json = {
      minutes,
      feeds: feedCount,
      subscribers,
      announcements: counted,
      worst_growth_pct: Number(worst.toFixed(1)),
      errors: traffic.errors + report.failures.length + sink.badSignatures,
      lost: lostWebhook + lostSubscriber,
      duplicated: duplicateWebhook + duplicateSubscriber,
    };
    console.log(JSON.stringify(json));
    // No announcement heard means the bench listened on the wrong channel: a broken run, not a clean one.
    if (json.errors > 0 || json.lost > 0 || json.duplicated > 0 || counted === 0) process.exitCode = 1;
  } finally {
    if (child.connected) {
      child.send({ type: 'close' } satisfies ToChild);
      await Promise.race([fromChild('closed').catch(() => undefined), sleep(20_000)]);
    }
    child.kill();
    bus.disconnect();
    await cluster.close();
    await sink.close();
    await fixture.close();
  }
}
