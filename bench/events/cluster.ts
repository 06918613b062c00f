/**
 * The cluster part of `npm run bench -- events`: FEEDMILL_BENCH_CLUSTER_SUBSCRIBERS subscribers
 * split evenly across two `feedmill api` processes (cluster mode, the project's Redis and
 * Cassandra), part graphql-ws subscriptions to one feed of one account, part `GET /v1/events`
 * streams (at most 20 per account and process, so 40 per account, one feed each), while one
 * `feedmill worker` refreshes every feed each FEEDMILL_BENCH_CLUSTER_INTERVAL seconds and each
 * refresh finds one new item. An event's time zero is when this process hears it on the Redis bus
 * channel, right after the worker committed its items; it ends at its last subscriber.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { channelOfDatabase } from '../../src/adapters/redis-bus/index.js';
import { Pool } from 'undici';
import { servicePids } from '../cluster-services.js';
import { runCommand } from '../feedmill-binary.js';
import type { ClusterSettings } from '../poll/modes.js';
import { formatRows } from '../poll/table.js';
import { startCluster, type Cluster } from '../scale/cluster.js';
import { startScaleFixture } from '../scale/fixture.js';
import { cpuMs, rssMb } from '../scale/proc-stats.js';
import { busyCores, machineTicks } from './cpu.js';
import type { FromChild, SubscriberSpec } from './cluster-protocol.js';
import { wallNow } from './protocol.js';
import { quantile } from './stats.js';

const childPath = fileURLToPath(new URL('./cluster-child.js', import.meta.url));
/** `GET /v1/events` streams one account may hold in one API process (src/http/routes/events.ts). */
const streamsPerAccountAndApi = 20;
/** After the measured time, how long events still in flight may take to arrive before they count as missing. */
const settleMs = 10_000;

export interface ClusterEventsOptions {
  subscribers: number;
  /** Share of the subscribers that are `/v1/events` streams, percent. */
  ssePercent: number;
  /**
   * Feeds the WebSocket subscribers are spread over, evenly. 1 puts every one on one feed of an
   * account of its own (the largest fan-out); more takes the feeds of the first stream accounts, so
   * each of those accounts' events reaches streams and WebSockets alike, at the same event rate.
   */
  wsFeeds: number;
  intervalSeconds: number;
  seconds: number;
  children: number;
  concurrency: number;
  settings: ClusterSettings;
}

const query = (feedId: string): string =>
  `subscription { feedUpdate(feedIds: ["${feedId}"]) { id type feed { id title } data { itemsNew { url title } itemsChanged { url title } } } }`;

/** An account with a read-write key, made as an operator makes one: `feedmill keys create`. */
async function createAccount(cluster: Cluster, account: string): Promise<string> {
  const printed = await runCommand(['keys', 'create', '--account', account, '--scopes', 'read,write', '--json'], cluster.env);
  const created = JSON.parse(printed.trim().split('\n').at(-1) ?? '') as { key: string; secret: string };
  return `Bearer ${created.key}:${created.secret}`;
}

async function createFeed(cluster: Cluster, authorization: string, url: string): Promise<string> {
  const pool = new Pool(cluster.origin, { connect: { ca: cluster.ca, servername: 'localhost' } });
  try {
    const response = await pool.request({
      method: 'POST',
      path: '/v1/feeds',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`Expected 200 from POST /v1/feeds, got ${response.statusCode}: ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { id: string }).id;
  } finally {
    await pool.close();
  }
}

function startChild(): { child: ChildProcess; next<T extends FromChild['type']>(type: T): Promise<Extract<FromChild, { type: T }>> } {
  const child = fork(childPath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const inbox: FromChild[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (message: FromChild) => {
    inbox.push(message);
    wake?.();
  });
  child.once('exit', () => wake?.());
  return {
    child,
    async next(type) {
      for (;;) {
        const message = inbox.shift();
        if (message?.type === 'failed') throw new Error(`subscriber child: ${message.message}`);
        if (message?.type === type) return message as Extract<FromChild, { type: typeof type }>;
        if (child.exitCode !== null) throw new Error(`The subscriber child exited (${child.exitCode}) while we waited for "${type}"`);
        if (!message) await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

export async function runClusterEvents(options: ClusterEventsOptions): Promise<void> {
  const sse = Math.round((options.subscribers * options.ssePercent) / 100);
  const ws = options.subscribers - sse;
  const sseAccounts = Math.ceil(sse / (2 * streamsPerAccountAndApi));
  const wsFeedCount = Math.max(1, Math.min(options.wsFeeds, ws));
  if (wsFeedCount > 1 && wsFeedCount > sseAccounts)
    throw new Error(
      `Expected FEEDMILL_BENCH_CLUSTER_WS_FEEDS to be 1 or at most the ${sseAccounts} stream accounts, got ${wsFeedCount}; lower it or raise the streams' share`,
    );
  const fixture = await startScaleFixture(1 + sseAccounts, 0, () => 'changed');
  const interval = String(options.intervalSeconds);
  const cluster = await startCluster(options.settings, 'events', {
    FEEDMILL_POLL_MIN_INTERVAL: interval,
    FEEDMILL_POLL_MAX_INTERVAL: interval,
    // One account may hold every WebSocket subscriber here; the caps are per account and per key.
    FEEDMILL_GRAPHQL_SUBSCRIPTIONS_PER_ACCOUNT: String(Math.max(100, ws)),
    FEEDMILL_GRAPHQL_CONNECTIONS_PER_KEY: String(Math.max(20, ws)),
  });
  const bus = new Redis(cluster.redisUrl);
  const servers = servicePids(options.settings);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const children: ReturnType<typeof startChild>[] = [];
  try {
    const origins = [cluster.origin, await cluster.addApi()];
    process.stderr.write(
      `events (cluster): ${ws} WebSocket subscribers on ${wsFeedCount} feed(s), ${sse} event streams over ${sseAccounts} accounts\n`,
    );
    const specs: SubscriberSpec[] = [];
    /** Subscribers of each feed's events, by path. */
    const expected = new Map<string, Record<SubscriberSpec['kind'], number>>();
    const streamFeeds: { feedId: string; authorization: string }[] = [];
    for (let account = 0; account < sseAccounts; account++) {
      const authorization = await createAccount(cluster, `bench-sse-${account}`);
      const streams = Math.min(2 * streamsPerAccountAndApi, sse - account * 2 * streamsPerAccountAndApi);
      const feedId = await createFeed(cluster, authorization, fixture.feedUrl(1 + account));
      streamFeeds.push({ feedId, authorization });
      expected.set(feedId, { ws: 0, sse: streams });
      for (let n = 0; n < streams; n++) specs.push({ kind: 'sse', origin: origins[n % 2] as string, authorization });
    }
    const wsFeeds =
      wsFeedCount === 1
        ? [{ feedId: await createFeed(cluster, cluster.authorization, fixture.feedUrl(0)), authorization: cluster.authorization }]
        : streamFeeds.slice(0, wsFeedCount);
    wsFeeds.forEach(({ feedId, authorization }, n) => {
      const subscribers = Math.floor(ws / wsFeedCount) + (n < ws % wsFeedCount ? 1 : 0);
      expected.set(feedId, { ws: subscribers, sse: expected.get(feedId)?.sse ?? 0 });
      for (let s = 0; s < subscribers; s++)
        specs.push({ kind: 'ws', origin: origins[s % 2] as string, authorization, query: query(feedId) });
    });
    await cluster.addWorker();
    const apiPids = cluster.apis.map((child) => child.pid ?? -1);
    const rssBefore = apiPids.reduce((sum, pid) => sum + rssMb(pid), 0);

    for (let c = 0; c < options.children; c++) children.push(startChild());
    const opened = performance.now();
    await Promise.all(
      children.map(async (handle, c) => {
        handle.child.send({
          type: 'open',
          subscribers: specs.filter((_, n) => n % options.children === c),
          ca: cluster.ca,
          concurrency: options.concurrency,
        });
        await handle.next('opened');
      }),
    );
    process.stderr.write(`  ${specs.length} subscribers open in ${((performance.now() - opened) / 1000).toFixed(1)} s\n`);
    await sleep(3_000);
    const rssAfter = apiPids.reduce((sum, pid) => sum + rssMb(pid), 0);

    const published = new Map<string, { at: number; feedId: string }>();
    // The channel the cluster's processes use, which names its Redis database.
    const channel = channelOfDatabase('feedmill:events', bus.options.db);
    await bus.subscribe(channel);
    bus.on('message', (_channel: string, message: string) => {
      const envelope = JSON.parse(message) as { feedId: string; event: { id: string } };
      if (expected.has(envelope.feedId)) published.set(envelope.event.id, { at: wallNow(), feedId: envelope.feedId });
    });
    // CPU by role over the measured window: on two shared cores, what the load generator, the
    // worker and Cassandra take is what the APIs do not get, so the p99 is read beside it.
    const roles = {
      apis: apiPids,
      generator: children.map((handle) => handle.child.pid ?? -1),
      worker: cluster.workers.map((child) => child.pid ?? -1),
      cassandra: [servers.cassandra ?? -1],
      redis: [servers.redis ?? -1],
    };
    const cpuOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const before = new Map(Object.entries(roles).map(([role, pids]) => [role, cpuOf(pids)]));
    const machineBefore = machineTicks();
    const ownBefore = process.cpuUsage();
    loop.enable();
    const from = wallNow();
    await sleep(options.seconds * 1000);
    const to = wallNow();
    const machineCores = busyCores(machineBefore, machineTicks());
    const cores = (role: keyof typeof roles): number => (cpuOf(roles[role]) - (before.get(role) ?? Number.NaN)) / (to - from);
    const own = process.cpuUsage(ownBefore);
    const cpu = {
      apis: cores('apis'),
      generator: cores('generator'),
      worker: cores('worker'),
      cassandra: cores('cassandra'),
      redis: cores('redis'),
      bench: (own.user + own.system) / 1000 / (to - from),
    };
    // What the machine did beyond the processes above: the kernel's own work (softirq time, which
    // no process is charged for) and anything else running.
    const counted = Object.values(cpu).reduce((sum, used) => sum + (Number.isNaN(used) ? 0 : used), 0);
    const rest = machineCores === undefined ? undefined : machineCores - counted;
    await sleep(settleMs);
    loop.disable();

    const reports = await Promise.all(
      children.map(async (handle) => {
        handle.child.send({ type: 'report' });
        return handle.next('report');
      }),
    );
    /** Arrivals by path and event (`ws evt_…`): one event may reach both paths. */
    const byEvent = new Map<string, { received: number; duplicates: number; lastAt: number }>();
    for (const report of reports)
      for (const event of report.events) {
        const key = `${event.kind} ${event.eventId}`;
        const entry = byEvent.get(key) ?? { received: 0, duplicates: 0, lastAt: 0 };
        entry.received += event.received;
        entry.duplicates += event.duplicates;
        entry.lastAt = Math.max(entry.lastAt, event.lastAt);
        byEvent.set(key, entry);
      }
    const rows: string[][] = [];
    // An event that reaches both paths counts once in each.
    const summary = { events: 0, missing: 0, duplicates: 0, delivered: 0, latencies: [] as number[] };
    // Each path's own p99 too: over all events, the 24 WebSocket events of a run are under 1% of
    // them and the overall p99 would not show their tail.
    const pathP99: { ws_p99_ms?: number; sse_p99_ms?: number } = {};
    // A path with subscribers and no event heard is a broken run (the bench listening on another
    // channel), never a clean one.
    const silent: string[] = [];
    for (const [label, kind] of [
      ['GraphQL WebSocket', 'ws'],
      ['/v1/events stream', 'sse'],
    ] as const) {
      let events = 0;
      let missing = 0;
      let duplicates = 0;
      const latencies: number[] = [];
      for (const [eventId, { at, feedId }] of published) {
        const subscribers = expected.get(feedId)?.[kind] ?? 0;
        if (at < from || at > to || subscribers === 0) continue;
        events += 1;
        const got = byEvent.get(`${kind} ${eventId}`);
        missing += Math.max(0, subscribers - (got?.received ?? 0));
        duplicates += got?.duplicates ?? 0;
        summary.delivered += got?.received ?? 0;
        if (got && got.received > 0) latencies.push(got.lastAt - at);
      }
      latencies.sort((a, b) => a - b);
      const subs = kind === 'ws' ? ws : sse;
      if (subs === 0) continue;
      if (events === 0) silent.push(label);
      pathP99[kind === 'ws' ? 'ws_p99_ms' : 'sse_p99_ms'] = Number(quantile(latencies, 0.99).toFixed(1));
      rows.push([
        label,
        String(subs),
        String(events),
        ...[0.5, 0.99, 1].map((q) => quantile(latencies, q).toFixed(1)),
        String(missing),
        String(duplicates),
      ]);
      summary.events += events;
      summary.missing += missing;
      summary.duplicates += duplicates;
      summary.latencies.push(...latencies);
    }
    summary.latencies.sort((a, b) => a - b);
    const failures = reports.flatMap((report) => report.failures);
    const generatorP99 = Math.max(loop.percentile(99) / 1e6, ...reports.map((report) => report.loopDelayP99Ms));
    const perSubscriberKb = ((rssAfter - rssBefore) * 1024) / specs.length;
    console.log(
      `events (cluster): ${specs.length} subscribers over 2 API processes, ${options.seconds} s, each feed refreshed every ${options.intervalSeconds} s by one worker; ms from the bus publish to the event's last subscriber`,
    );
    console.log(formatRows(['path', 'subscribers', 'events', 'p50 ms', 'p99 ms', 'max ms', 'missing', 'duplicates'], rows));
    console.log(
      `API RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB (both processes): ${perSubscriberKb.toFixed(1)} KB per subscriber; load generator event-loop delay p99 ${generatorP99.toFixed(1)} ms (max ${Math.max(...reports.map((report) => report.loopDelayMaxMs)).toFixed(0)} ms), children RSS ${reports.map((report) => report.rssMb.toFixed(0)).join(' + ')} MB`,
    );
    // Per message delivered in the window, both paths together; a run with
    // FEEDMILL_BENCH_CLUSTER_SSE_PERCENT=0 gives the WebSocket path's own cost.
    // Cassandra and Redis started otherwise have no pid file to find them by.
    const shown = (coresUsed: number): string => (Number.isNaN(coresUsed) ? '?' : coresUsed.toFixed(2));
    const perMessageUs = (coresUsed: number): number => (coresUsed * (to - from) * 1000) / Math.max(1, summary.delivered);
    console.log(
      `CPU in the measured ${options.seconds} s, cores on average: APIs ${cpu.apis.toFixed(2)}, load generator ${cpu.generator.toFixed(2)}, worker ${cpu.worker.toFixed(2)}, Cassandra ${shown(cpu.cassandra)}, Redis ${shown(cpu.redis)}, this process ${cpu.bench.toFixed(2)}, the rest ${rest?.toFixed(2) ?? '?'}; the whole machine ${machineCores?.toFixed(2) ?? '?'} of ${availableParallelism()}. ${summary.delivered} messages delivered: ${perMessageUs(cpu.apis).toFixed(0)} µs of API CPU and ${perMessageUs(cpu.generator).toFixed(0)} µs of generator CPU each`,
    );
    if (failures.length > 0) console.log(`${failures.length} subscriber problems, first: ${failures[0]}`);
    console.log(
      JSON.stringify({
        subscribers: specs.length,
        apis: 2,
        ws,
        ws_feeds: wsFeedCount,
        sse,
        events: summary.events,
        p50_ms: Number(quantile(summary.latencies, 0.5).toFixed(1)),
        p99_ms: Number(quantile(summary.latencies, 0.99).toFixed(1)),
        ...pathP99,
        kb_per_subscriber: Number(perSubscriberKb.toFixed(1)),
        missing: summary.missing,
        duplicates: summary.duplicates,
        generator_loop_p99_ms: Number(generatorP99.toFixed(1)),
        api_cores: Number(cpu.apis.toFixed(2)),
        generator_cores: Number(cpu.generator.toFixed(2)),
        worker_cores: Number(cpu.worker.toFixed(2)),
        cassandra_cores: Number.isNaN(cpu.cassandra) ? null : Number(cpu.cassandra.toFixed(2)),
        machine_cores: machineCores === undefined ? null : Number(machineCores.toFixed(2)),
        api_us_per_message: Number(perMessageUs(cpu.apis).toFixed(0)),
        generator_us_per_message: Number(perMessageUs(cpu.generator).toFixed(0)),
      }),
    );
    if (silent.length > 0) console.log(`no event heard on ${channel} for: ${silent.join(', ')}`);
    if (summary.missing > 0 || summary.duplicates > 0 || failures.length > 0 || silent.length > 0) process.exitCode = 1;
  } finally {
    for (const handle of children) {
      if (handle.child.exitCode !== null || !handle.child.connected) continue;
      handle.child.send({ type: 'close' });
      await Promise.race([handle.next('closed').catch(() => undefined), sleep(30_000)]);
      handle.child.kill();
    }
    bus.disconnect();
    await cluster.close();
    await fixture.close();
  }
}
