import { setTimeout as sleep } from 'node:timers/promises';
import { scheduleFigures } from './accounting.js';
import { cassandraUsage } from './cassandra-usage.js';
import type { Cluster } from './cluster.js';
import { kindOf, type ScaleFixture } from './fixture.js';
import { readHostedFeeds } from './hosted-reads.js';
import { cpuMs, rssMb } from './proc-stats.js';
import { redisCommandCalls } from './redis-usage.js';

export interface MeasureRequest {
  cluster: Cluster;
  fixture: ScaleFixture;
  ids: readonly string[];
  seededDue: (n: number) => number;
  intervalMs: number;
  warmupS: number;
  seconds: number;
  drainS: number;
  readsPerSecond: number;
  redisBytesPerFeed: number;
  cassandra: { contactPoint: string; dataDir: string };
  /** Process ids of the Cassandra and Redis servers, when the bench could find them (servicePids). */
  servers: { cassandra?: number; redis?: number };
}

/**
 * The figures the issue asks for, with exactly its keys, plus lag p50 and the servers' CPU per
 * refresh, for one JSON line per configuration.
 */
export interface ScaleJson {
  feeds: number;
  workers: number;
  refreshes_per_s: number;
  cpu_ms_per_refresh: number;
  lag_p50_ms: number;
  lag_p99_ms: number;
  redis_bytes_per_feed: number;
  cassandra_bytes_per_item: number | null;
  api_rss_mb: number;
  duplicates: number;
  missed: number;
  /** Null when the server's process was not found (started other than by scripts/services). */
  cassandra_cpu_ms_per_refresh: number | null;
  redis_cpu_ms_per_refresh: number | null;
  /**
   * Commands the Redis server answered per refresh, all clients (the API's too), and of those the
   * scripts (`evalsha`: BullMQ's job moves) and blocking pops (`bzpopmin`: a worker waiting for a
   * job). Their growth with the number of workers is the cost of each worker asking for jobs.
   */
  redis_commands_per_refresh: number;
  redis_scripts_per_refresh: number;
  redis_blocking_pops_per_refresh: number;
}

export interface ConfigurationResult {
  row: string[];
  json: ScaleJson;
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));
const workerCpu = (cluster: Cluster): number => cluster.workers.reduce((sum, child) => sum + cpuMs(child.pid ?? -1), 0);

/** Warm-up, then `seconds` measured with the workers running now, then a drain for late due times. */
export async function measureConfiguration(request: MeasureRequest): Promise<ConfigurationResult> {
  const { cluster, fixture } = request;
  const feeds = request.ids.length;
  const workers = cluster.workers.length;
  process.stderr.write(`  ${workers} worker(s): ${request.warmupS} s warm-up, ${request.seconds} s measured, ${request.drainS} s drain\n`);
  await sleep(request.warmupS * 1000);
  const api = cluster.apis[0]?.pid ?? -1;
  const reads = readHostedFeeds(cluster.origin, cluster.ca, request.ids, request.readsPerSecond);
  let apiRss = rssMb(api);
  const sampler = setInterval(() => (apiRss = Math.max(apiRss, rssMb(api))), 1000);
  const serverCpu = (): { cassandra: number; redis: number } => ({
    cassandra: cpuMs(request.servers.cassandra ?? -1),
    redis: cpuMs(request.servers.redis ?? -1),
  });
  const callsBefore = await redisCommandCalls(cluster.redisUrl);
  const cpuBefore = workerCpu(cluster);
  const serversBefore = serverCpu();
  const from = Date.now();
  await sleep(request.seconds * 1000);
  const to = Date.now();
  const cpu = workerCpu(cluster) - cpuBefore;
  const serversAfter = serverCpu();
  const callsAfter = await redisCommandCalls(cluster.redisUrl);
  const callsOf = (command?: string): number =>
    [...callsAfter]
      .filter(([name]) => command === undefined || name === command)
      .reduce((sum, [name, calls]) => sum + calls - (callsBefore.get(name) ?? 0), 0);
  clearInterval(sampler);
  await reads.stop();
  await sleep(request.drainS * 1000);
  const figures = scheduleFigures(fixture.arrivals, request.seededDue, request.intervalMs, { from, to, settledAt: Date.now() }, kindOf);
  if (figures.duplicates > 0)
    process.stderr.write(`  duplicates by kind of feed (count, median gap ms): ${JSON.stringify(figures.duplicatesByKind)}\n`);
  const keyspace = cluster.target.env.FEEDMILL_CASSANDRA_KEYSPACE as string;
  const stored = await cassandraUsage(request.cassandra.contactPoint, keyspace, request.cassandra.dataDir);
  const perRefresh = (ms: number): number | null => (Number.isNaN(ms) ? null : round(ms / Math.max(1, figures.refreshes), 2));
  const perItem = (bytes: number): number | null => (stored.items === 0 || bytes === 0 ? null : Math.round(bytes / stored.items));
  const json: ScaleJson = {
    feeds,
    workers,
    refreshes_per_s: round(figures.refreshes / ((to - from) / 1000), 1),
    cpu_ms_per_refresh: round(cpu / Math.max(1, figures.refreshes), 2),
    lag_p50_ms: Math.round(figures.lagP50Ms),
    lag_p99_ms: Math.round(figures.lagP99Ms),
    redis_bytes_per_feed: Math.round(request.redisBytesPerFeed),
    // The logical size: the bytes on disk count only what Cassandra happened to flush (bench/README.md).
    cassandra_bytes_per_item: perItem(stored.logicalBytes),
    api_rss_mb: round(apiRss, 1),
    duplicates: figures.duplicates,
    missed: figures.missed,
    cassandra_cpu_ms_per_refresh: perRefresh(serversAfter.cassandra - serversBefore.cassandra),
    redis_cpu_ms_per_refresh: perRefresh(serversAfter.redis - serversBefore.redis),
    redis_commands_per_refresh: round(callsOf() / Math.max(1, figures.refreshes), 1),
    redis_scripts_per_refresh: round(callsOf('evalsha') / Math.max(1, figures.refreshes), 1),
    redis_blocking_pops_per_refresh: round(callsOf('bzpopmin') / Math.max(1, figures.refreshes), 1),
  };
  const statuses = Object.entries(reads.statuses)
    .map(([status, n]) => `${status} ${n}`)
    .join(', ');
  const row = [
    String(feeds),
    String(request.intervalMs / 1000),
    String(workers),
    String(json.refreshes_per_s),
    String(json.cpu_ms_per_refresh),
    `${json.cassandra_cpu_ms_per_refresh ?? '?'} · ${json.redis_cpu_ms_per_refresh ?? '?'}`,
    `${json.lag_p50_ms} / ${json.lag_p99_ms} / ${Math.round(figures.lagMaxMs)}`,
    String(Math.round(figures.feedWorstLagP99Ms)),
    String(json.redis_bytes_per_feed),
    `${perItem(stored.diskBytes) ?? 'not flushed'}; ${perItem(stored.logicalBytes) ?? '-'} (${stored.items} items)`,
    String(json.api_rss_mb),
    statuses,
    String(json.duplicates),
    String(json.missed),
  ];
  process.stderr.write(`  ${row.join(' | ')}\n`);
  process.stderr.write(
    `  Redis commands per refresh: ${json.redis_commands_per_refresh} (scripts ${json.redis_scripts_per_refresh}, blocking pops ${json.redis_blocking_pops_per_refresh})\n`,
  );
  return { row, json };
}
