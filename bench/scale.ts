/**
 * `npm run bench -- scale`: a cluster (`feedmill api` + `feedmill worker`, the project's Redis and
 * Cassandra) holding FEEDMILL_BENCH_FEEDS feeds of a local fixture (90% answer 304, 6% publish an
 * item on every request, 2% answer 500, 2% answer 304 after FEEDMILL_BENCH_SCALE_SLOW_MS), seeded
 * through the store, each polled every `interval` = feeds ÷ FEEDMILL_BENCH_SCALE_RATE seconds
 * (FEEDMILL_POLL_MIN_INTERVAL = _MAX_INTERVAL, so every due time is known), refreshed for
 * FEEDMILL_BENCH_SCALE_SECONDS with one worker and then two while the API serves hosted documents of
 * random feeds. Counts every request at the fixture per feed and due time. Prints a table, and one
 * JSON line per configuration (bench/README.md "scale" says what each figure is).
 *
 * Environment: FEEDMILL_BENCH_FEEDS (`10000,100000`), FEEDMILL_BENCH_SCALE_RATE (offered refreshes
 * per second, 200), FEEDMILL_BENCH_SCALE_SECONDS (measured per configuration, 300),
 * FEEDMILL_BENCH_SCALE_WARMUP (seconds before measuring, 30), FEEDMILL_BENCH_SCALE_DRAIN (seconds
 * after, for late due times, 30), FEEDMILL_BENCH_SCALE_WORKERS (`1,2`), FEEDMILL_BENCH_SCALE_READS
 * (hosted reads per second, 20), FEEDMILL_BENCH_SCALE_SLOW_MS (3000), FEEDMILL_BENCH_SCALE_OPML_FEEDS
 * (feeds imported through OPML in a deployment of their own, to compare with seeding the store; 0
 * skips, 1000), FEEDMILL_BENCH_CASSANDRA (`127.0.0.1:9042`), FEEDMILL_BENCH_CASSANDRA_DATA_DIR (the
 * server's data directory, for the bytes on disk), FEEDMILL_BENCH_REDIS_URL (`redis://127.0.0.1:6379`),
 * FEEDMILL_BENCH_PROFILE_DIR (a CPU profile of each cluster process).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { clusterServices, servicePids } from './cluster-services.js';
import { repositoryRoot } from './corpus-dir.js';
import { formatRows } from './poll/table.js';
import { startCluster } from './scale/cluster.js';
import { measureConfiguration, type ConfigurationResult } from './scale/measure.js';
import { seedThroughOpml } from './scale/opml-seed.js';
import { redisUsage, shapeGrowth } from './scale/redis-usage.js';
import { seedThroughStore } from './scale/seed.js';
import { startScaleFixture } from './scale/fixture.js';
import { whole, wholeList } from './scale/env.js';

export type ScaleEnv = Record<string, string | undefined>;

export async function runScale(env: ScaleEnv): Promise<void> {
  const feedCounts = wholeList(env.FEEDMILL_BENCH_FEEDS, '10000,100000');
  const rate = whole(env.FEEDMILL_BENCH_SCALE_RATE, 200);
  const seconds = whole(env.FEEDMILL_BENCH_SCALE_SECONDS, 300);
  const workerCounts = wholeList(env.FEEDMILL_BENCH_SCALE_WORKERS, '1,2');
  const opmlFeeds = whole(env.FEEDMILL_BENCH_SCALE_OPML_FEEDS, 1000, 0);
  const slowMs = whole(env.FEEDMILL_BENCH_SCALE_SLOW_MS, 3000);
  const settings = {
    ...clusterServices(env),
  };
  const cassandraDataDir = env.FEEDMILL_BENCH_CASSANDRA_DATA_DIR ?? join(repositoryRoot(), '.cache/services/cassandra/data');
  const loadBefore = loadavg();
  const results: ConfigurationResult[] = [];
  const seeding: string[][] = [];
  const redisShapes: string[] = [];

  for (const feeds of feedCounts) {
    const intervalS = Math.max(1, Math.round(feeds / rate));
    const interval = String(intervalS);
    const fixture = await startScaleFixture(feeds, slowMs);
    const cluster = await startCluster(settings, 'scale', { FEEDMILL_POLL_MIN_INTERVAL: interval, FEEDMILL_POLL_MAX_INTERVAL: interval });
    try {
      const before = await redisUsage(cluster.redisUrl);
      process.stderr.write(`scale: ${feeds} feeds, polled every ${intervalS} s; seeding through the store\n`);
      const seed = await seedThroughStore(cluster.env, feeds, intervalS * 1000, fixture.origin);
      const after = await redisUsage(cluster.redisUrl);
      const seedRate = feeds / ((seed.insertMs + seed.scheduleMs) / 1000);
      seeding.push([
        String(feeds),
        'store (insert, then place the job)',
        `${(seed.insertMs / 1000).toFixed(1)} + ${(seed.scheduleMs / 1000).toFixed(1)}`,
        seedRate.toFixed(0),
      ]);
      const redisBytesPerFeed = (after.bytes - before.bytes) / feeds;
      redisShapes.push(`${feeds} feeds seeded:`, ...shapeGrowth(before, after).map((line) => `  ${line}`));
      process.stderr.write(
        `  seeded at ${seedRate.toFixed(0)} feeds/s; Redis: ${after.keys - before.keys} keys, ${(after.bytes - before.bytes) / 1e6} MB by MEMORY USAGE, used_memory ${((after.usedMemory - before.usedMemory) / 1e6).toFixed(1)} MB (whole server)\n`,
      );
      for (const workers of workerCounts) {
        while (cluster.workers.length < workers) await cluster.addWorker();
        results.push(
          await measureConfiguration({
            cluster,
            fixture,
            ids: seed.ids,
            seededDue: (n) => seed.base + Math.floor((n * intervalS * 1000) / feeds),
            intervalMs: intervalS * 1000,
            warmupS: whole(env.FEEDMILL_BENCH_SCALE_WARMUP, 30),
            seconds,
            drainS: whole(env.FEEDMILL_BENCH_SCALE_DRAIN, 30),
            readsPerSecond: whole(env.FEEDMILL_BENCH_SCALE_READS, 20),
            redisBytesPerFeed,
            cassandra: { contactPoint: settings.cassandra, dataDir: cassandraDataDir },
            servers: servicePids(settings),
          }),
        );
      }
    } finally {
      await cluster.close();
      await fixture.close();
    }
  }

  if (opmlFeeds > 0) {
    process.stderr.write(`scale: ${opmlFeeds} feeds imported through POST /v1/opml, one worker\n`);
    const fixture = await startScaleFixture(opmlFeeds, slowMs);
    const cluster = await startCluster(settings, 'scale', {});
    try {
      await cluster.addWorker();
      const urls = Array.from({ length: opmlFeeds }, (_, n) => fixture.feedUrl(n));
      const opml = await seedThroughOpml(cluster.origin, cluster.ca, cluster.authorization, urls);
      const outcomes = Object.entries(opml.outcomes)
        .map(([name, n]) => `${name} ${n}`)
        .join(', ');
      seeding.push([
        String(opmlFeeds),
        `OPML import job (${outcomes})`,
        (opml.ms / 1000).toFixed(1),
        (opmlFeeds / (opml.ms / 1000)).toFixed(0),
      ]);
    } finally {
      await cluster.close();
      await fixture.close();
    }
  }

  const load = (values: number[]): string => values.map((value) => value.toFixed(2)).join(' ');
  console.log('scale: seeding');
  console.log(formatRows(['feeds', 'through', 'seconds', 'feeds/s'], seeding));
  console.log('scale: Redis keys the seeding added, by key shape (MEMORY USAGE)');
  for (const line of redisShapes) console.log(line);
  console.log(`scale: ${seconds} s measured per configuration, offered ${rate} refreshes/s (interval = feeds ÷ rate)`);
  console.log(
    formatRows(
      [
        'feeds',
        'interval s',
        'workers',
        'refreshes/s',
        'CPU ms/refresh',
        'Cassandra · Redis CPU ms/refresh',
        'lag p50 / p99 / max ms',
        'worst lag per feed p99 ms',
        'Redis B/feed',
        'Cassandra B/item (disk; logical)',
        'API RSS MB',
        'hosted reads',
        'duplicates',
        'missed',
      ],
      results.map((result) => result.row),
    ),
  );
  console.log(`load average (1/5/15 min) before: ${load(loadBefore)}, after: ${load(loadavg())}`);
  for (const result of results) console.log(JSON.stringify(result.json));
  if (results.some((result) => result.json.duplicates > 0 || result.json.missed > 0)) process.exitCode = 1;
}
