/**
 * `node dist/bench/run.js load`: a bounded load run against the `feedmill` binary, in embedded mode
 * (`feedmill all`, SQLite) and cluster mode (`feedmill api` + `feedmill worker`, Cassandra and
 * Redis): `connections` keep-alive HTTPS connections for `seconds`, each sending a mix of reads,
 * hosted-feed GETs (half conditional) and writes (`bench/load/mix.ts`) over ~50 feeds created from
 * a local fixture source beforehand. Prints requests, req/s, p50/p90/p99/max latency and errors by
 * status per request kind and overall; exits non-zero when any answer was not a 2xx or a 304.
 * Every socket is on 127.0.0.1.
 *
 * Environment: FEEDMILL_BENCH_LOAD_SECONDS (60), FEEDMILL_BENCH_LOAD_CONNECTIONS (50),
 * FEEDMILL_BENCH_LOAD_FEEDS (50), FEEDMILL_BENCH_MODES (`embedded,cluster`),
 * FEEDMILL_BENCH_CASSANDRA (`127.0.0.1:9042`), FEEDMILL_BENCH_REDIS_URL (`redis://127.0.0.1:6379`).
 */
import { loadavg } from 'node:os';
import { Pool } from 'undici';
import { clusterServices } from './cluster-services.js';
import type { ModeName } from './poll/modes.js';
import { startPollSource } from './poll/source.js';
import { benchRateLimit, prepareFeeds, startDeployment } from './load/deploy.js';
import { runLoops } from './load/mix.js';
import { formatResults, Recorder, summarise, type ModeResult } from './load/record.js';

export type LoadEnv = Record<string, string | undefined>;

const whole = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`Expected a whole number above 0, got "${value}"`);
  return parsed;
};

/** A request that has not answered in this long counts as an error (`UND_ERR_HEADERS_TIMEOUT`) and the loop goes on. */
const requestTimeoutMs = 30_000;

export async function runLoad(env: LoadEnv): Promise<void> {
  const seconds = whole(env.FEEDMILL_BENCH_LOAD_SECONDS, 60);
  const connections = whole(env.FEEDMILL_BENCH_LOAD_CONNECTIONS, 50);
  const feedCount = whole(env.FEEDMILL_BENCH_LOAD_FEEDS, 50);
  const modes = (env.FEEDMILL_BENCH_MODES ?? 'embedded,cluster').split(',').map((text): ModeName => {
    const mode = text.trim();
    if (mode !== 'embedded' && mode !== 'cluster')
      throw new Error(`Expected FEEDMILL_BENCH_MODES to list embedded and/or cluster, got "${mode}"`);
    return mode;
  });
  const cluster = {
    ...clusterServices(env),
  };
  const loadBefore = loadavg();
  const source = await startPollSource();
  const results: ModeResult[] = [];
  try {
    for (const mode of modes) {
      process.stderr.write(`load: ${mode}, starting feedmill and creating ${feedCount} feeds\n`);
      const running = await startDeployment(mode, cluster);
      const pool = new Pool(running.origin, {
        connections,
        pipelining: 1,
        headersTimeout: requestTimeoutMs,
        bodyTimeout: requestTimeoutMs,
        connect: { ca: running.ca, servername: 'localhost' },
      });
      try {
        const feeds = await prepareFeeds(pool, running.authorization, source, feedCount);
        process.stderr.write(`load: ${mode}, ${connections} connections for ${seconds} s\n`);
        const recorder = new Recorder();
        const elapsed = await runLoops({ pool, authorization: running.authorization, feeds, recorder }, connections, seconds);
        const rows = [...recorder.kinds].map(([kind, log]) => ({ kind, summary: summarise(log) }));
        rows.sort((a, b) => b.summary.requests - a.summary.requests);
        rows.push({ kind: 'all', summary: summarise(recorder.all()) });
        results.push({ mode, seconds: elapsed, rows });
      } finally {
        await pool.close();
        await running.close();
      }
    }
  } finally {
    await source.close();
  }
  const load = (values: number[]): string => values.map((value) => value.toFixed(2)).join(' ');
  console.log(
    `load: ${connections} connections, ${seconds} s per mode, ${feedCount} feeds, FEEDMILL_RATE_LIMIT=${benchRateLimit}; latency from sending to the whole body read`,
  );
  console.log(formatResults(results));
  console.log(`load average (1/5/15 min) before: ${load(loadBefore)}, after: ${load(loadavg())}`);
  const errors = results.reduce(
    (sum, result) => sum + Object.values(result.rows.at(-1)?.summary.errors ?? {}).reduce((a, b) => a + b, 0),
    0,
  );
  if (errors > 0) {
    console.log(`${errors} errors (answers other than 2xx and 304, or transport failures)`);
    process.exitCode = 1;
  }
}
