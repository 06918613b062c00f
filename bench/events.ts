/**
 * `node dist/bench/run.js events`: how long a change notification takes to arrive, in embedded
 * mode, from the moment a refresh publishes a `feed_update` on the bus to (a) the signed webhook
 * POST at a local receiver, sent through the delivery scheduler as in production, and (b) each of
 * 1, 100 and 1000 `graphql-ws` subscribers on real TLS WebSockets to the HTTPS server. Everything
 * listens on 127.0.0.1; the subscribers run in a child process (`bench/events/subscribers.ts`).
 *
 * Environment: FEEDMILL_BENCH_RUNS (fresh stack each run, default 3), FEEDMILL_BENCH_REFRESHES
 * (measured per case, default 50), FEEDMILL_BENCH_WARMUP (unmeasured per case, default 5),
 * FEEDMILL_BENCH_SUBSCRIBERS (cases, default `0,1,100,1000`; 0 = webhook alone),
 * FEEDMILL_BENCH_OPEN_CONCURRENCY (handshakes at once, default 20), FEEDMILL_BENCH_GAP_MS (pause
 * between refreshes, default 50).
 *
 * Then the cluster part (`bench/events/cluster.ts`): FEEDMILL_BENCH_EVENTS_PARTS (`embedded,cluster`),
 * FEEDMILL_BENCH_CLUSTER_SUBSCRIBERS (10000), FEEDMILL_BENCH_CLUSTER_SSE_PERCENT (share that are
 * `/v1/events` streams, 50), FEEDMILL_BENCH_CLUSTER_WS_FEEDS (1: every WebSocket subscriber on one
 * feed; N: spread over the first N stream accounts' feeds), FEEDMILL_BENCH_CLUSTER_INTERVAL (seconds
 * between a feed's refreshes, 5),
 * FEEDMILL_BENCH_CLUSTER_SECONDS (measured, 120), FEEDMILL_BENCH_CLUSTER_CHILDREN (load-generator
 * processes, 2), FEEDMILL_BENCH_CASSANDRA (`127.0.0.1:9042`), FEEDMILL_BENCH_REDIS_URL
 * (`redis://127.0.0.1:6379`), FEEDMILL_BENCH_PROFILE_DIR (a CPU profile of each cluster process).
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { clusterServices } from './cluster-services.js';
import { startSubscribers, type Subscribers } from './events/child.js';
import { runClusterEvents } from './events/cluster.js';
import { cpuWindow, type CpuShare } from './events/cpu.js';
import { startStack, type Stack } from './events/stack.js';
import { formatTable, quantile, summarise, type Row } from './events/stats.js';

export interface EventsEnv {
  FEEDMILL_BENCH_RUNS?: string | undefined;
  FEEDMILL_BENCH_REFRESHES?: string | undefined;
  FEEDMILL_BENCH_WARMUP?: string | undefined;
  FEEDMILL_BENCH_SUBSCRIBERS?: string | undefined;
  FEEDMILL_BENCH_OPEN_CONCURRENCY?: string | undefined;
  FEEDMILL_BENCH_GAP_MS?: string | undefined;
  FEEDMILL_BENCH_EVENTS_PARTS?: string | undefined;
  FEEDMILL_BENCH_CLUSTER_SUBSCRIBERS?: string | undefined;
  FEEDMILL_BENCH_CLUSTER_SSE_PERCENT?: string | undefined;
  FEEDMILL_BENCH_CLUSTER_WS_FEEDS?: string | undefined;
  FEEDMILL_BENCH_CLUSTER_INTERVAL?: string | undefined;
  FEEDMILL_BENCH_CLUSTER_SECONDS?: string | undefined;
  FEEDMILL_BENCH_CLUSTER_CHILDREN?: string | undefined;
  FEEDMILL_BENCH_CASSANDRA?: string | undefined;
  FEEDMILL_BENCH_REDIS_URL?: string | undefined;
}

/** What the subscribers ask for: the whole event, as the transport tests do. */
const query = (feedId: string): string => `subscription { feedUpdate(feedIds: ["${feedId}"]) {
  id type feed { id title sourceUrl rssFeedUrl description icon }
  data {
    itemsNew { url title descriptionText thumbnail datePublished authors { name } }
    itemsChanged { url title descriptionText thumbnail datePublished authors { name } changedFields }
  }
} }`;

/** An event not received this long after publishing counts as missing. */
const timeoutMs = 10_000;

const count = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`Expected a whole number, got "${value}"`);
  return parsed;
};

interface CaseResult {
  webhook: number[];
  each: number[];
  last: number[];
  /** Publish to `refreshFeed` resolving. */
  resolved: number[];
  missing: { webhook: number; subscribers: number };
  /** Machine and benchmark CPU over the measured refreshes. */
  cpu: CpuShare | undefined;
}

async function waitForListeners(stack: Stack, expected: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (stack.env.deps.bus.listenerCount !== expected) {
    if (Date.now() > deadline) throw new Error(`Expected ${expected} bus listeners, have ${stack.env.deps.bus.listenerCount}`);
    await sleep(20);
  }
}

async function runCase(
  stack: Stack,
  subscribers: number,
  refreshes: number,
  warmup: number,
  concurrency: number,
  gapMs: number,
): Promise<CaseResult> {
  let clients: Subscribers | undefined;
  if (subscribers > 0) {
    clients = await startSubscribers({
      wsUrl: stack.server.wsUrl,
      ca: stack.server.ca,
      authorization: stack.authorization,
      query: query(stack.feedId),
      count: subscribers,
      concurrency,
    });
    process.stderr.write(
      `  ${subscribers} subscribers open in ${(clients.openedMs / 1000).toFixed(1)} s; child clock offset ${clients.clock.offset.toFixed(2)} ms (round trip ${clients.clock.rtt.toFixed(2)} ms)\n`,
    );
  }
  try {
    // A subscription is live once its listener is on the bus.
    await waitForListeners(stack, stack.baseline + subscribers);
    const result: CaseResult = { webhook: [], each: [], last: [], resolved: [], missing: { webhook: 0, subscribers: 0 }, cpu: undefined };
    let window: ReturnType<typeof cpuWindow> | undefined;
    let childCpuStart = 0;
    for (let n = 0; n < warmup + refreshes; n++) {
      const measured = n >= warmup;
      if (n === warmup) {
        childCpuStart = (await clients?.cpuMicros()) ?? 0;
        window = cpuWindow();
      }
      const event = await stack.publish(`Item ${n} for ${subscribers}`);
      const [webhookAt, stamps] = await Promise.all([
        stack.sink.arrival(event.eventId, timeoutMs),
        clients?.arrivals(event.eventId, timeoutMs) ?? Promise.resolve([]),
      ]);
      if (measured) {
        result.resolved.push(event.resolvedAt - event.publishedAt);
        if (webhookAt === undefined) result.missing.webhook += 1;
        else result.webhook.push(webhookAt - event.publishedAt);
        if (stamps.length < subscribers) result.missing.subscribers += 1;
        const latencies = stamps.map((at) => at - event.publishedAt);
        result.each.push(...latencies);
        if (latencies.length > 0) result.last.push(Math.max(...latencies));
      }
      await sleep(gapMs);
    }
    const childCpu = ((await clients?.cpuMicros()) ?? 0) - childCpuStart;
    result.cpu = window?.stop(childCpu);
    if (clients && clients.failures.length > 0)
      throw new Error(`Subscribers reported ${clients.failures.length} problems, first: ${clients.failures[0]}`);
    return result;
  } finally {
    await clients?.close();
    // The server drops each subscription's bus listener when its socket closes.
    await waitForListeners(stack, stack.baseline);
  }
}

export async function runEvents(env: EventsEnv): Promise<void> {
  const parts = (env.FEEDMILL_BENCH_EVENTS_PARTS ?? 'embedded,cluster').split(',').map((part) => part.trim());
  if (parts.includes('embedded')) await runEmbeddedEvents(env);
  if (parts.includes('cluster')) {
    await runClusterEvents({
      subscribers: Math.max(1, count(env.FEEDMILL_BENCH_CLUSTER_SUBSCRIBERS, 10_000)),
      ssePercent: Math.min(100, count(env.FEEDMILL_BENCH_CLUSTER_SSE_PERCENT, 50)),
      wsFeeds: Math.max(1, count(env.FEEDMILL_BENCH_CLUSTER_WS_FEEDS, 1)),
      intervalSeconds: Math.max(1, count(env.FEEDMILL_BENCH_CLUSTER_INTERVAL, 5)),
      seconds: Math.max(1, count(env.FEEDMILL_BENCH_CLUSTER_SECONDS, 120)),
      children: Math.max(1, count(env.FEEDMILL_BENCH_CLUSTER_CHILDREN, 2)),
      concurrency: Math.max(1, count(env.FEEDMILL_BENCH_OPEN_CONCURRENCY, 20)),
      settings: {
        ...clusterServices(env),
      },
    });
  }
}

async function runEmbeddedEvents(env: EventsEnv): Promise<void> {
  const runs = Math.max(1, count(env.FEEDMILL_BENCH_RUNS, 3));
  const refreshes = Math.max(1, count(env.FEEDMILL_BENCH_REFRESHES, 50));
  const warmup = count(env.FEEDMILL_BENCH_WARMUP, 5);
  const concurrency = Math.max(1, count(env.FEEDMILL_BENCH_OPEN_CONCURRENCY, 20));
  const gapMs = count(env.FEEDMILL_BENCH_GAP_MS, 50);
  const cases = (env.FEEDMILL_BENCH_SUBSCRIBERS ?? '0,1,100,1000').split(',').map((text) => count(text.trim(), 0));
  const loadBefore = loadavg();

  const rows = new Map<string, Row>();
  const cpu = new Map<string, CpuShare[]>();
  const add = (label: string, path: string, samples: number[], missing: number): void => {
    const key = `${label}\u0000${path}`;
    const row = rows.get(key) ?? { case: label, path, runs: [], missing: 0 };
    row.runs.push(summarise(samples));
    row.missing += missing;
    rows.set(key, row);
  };
  for (let run = 1; run <= runs; run++) {
    const stack = await startStack();
    try {
      for (const subscribers of cases) {
        process.stderr.write(`run ${run}/${runs}: ${subscribers} subscribers, ${refreshes} refreshes (+${warmup} warm-up)\n`);
        const result = await runCase(stack, subscribers, refreshes, warmup, concurrency, gapMs);
        const label = subscribers === 0 ? 'webhook alone' : `${subscribers} subscriber${subscribers === 1 ? '' : 's'}`;
        add(label, 'webhook', result.webhook, result.missing.webhook);
        if (subscribers > 0) add(label, 'each subscriber', result.each, subscribers === 1 ? result.missing.subscribers : 0);
        if (subscribers > 1) add(label, `last of ${subscribers}`, result.last, result.missing.subscribers);
        add(label, '(refreshFeed resolves)', result.resolved, 0);
        if (result.cpu) cpu.set(label, [...(cpu.get(label) ?? []), result.cpu]);
      }
      if (stack.sink.badSignatures > 0) throw new Error(`${stack.sink.badSignatures} webhook deliveries failed signature verification`);
    } finally {
      await stack.close();
    }
  }
  const loadAfter = loadavg();
  const load = (values: number[]): string => values.map((value) => value.toFixed(2)).join(' ');
  console.log(
    `events: ms from bus publish to arrival; median over ${runs} run(s) (min–max of runs); ${refreshes} refreshes per case and run`,
  );
  console.log(formatTable([...rows.values()]));
  const cores = (shares: CpuShare[], pick: (share: CpuShare) => number): string =>
    quantile(
      shares.map(pick).sort((a, b) => a - b),
      0.5,
    ).toFixed(2);
  console.log(`load average (1/5/15 min) before: ${load(loadBefore)}, after: ${load(loadAfter)}`);
  console.log('cores busy during the measured refreshes (median over runs), whole machine / this benchmark:');
  for (const [label, shares] of cpu)
    console.log(`  ${label}: ${cores(shares, (share) => share.machine)} / ${cores(shares, (share) => share.bench)}`);
}
