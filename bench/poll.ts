/**
 * `node dist/bench/run.js poll`: how many refreshes one worker process completes per second
 * against a local fixture source (304s, and changed ~100 KB documents), for 1k and 10k feeds, in
 * embedded mode (SQLite, local scheduler) and cluster mode (Cassandra, BullMQ); then the
 * throughput of GET /v1/feeds/:id (50 items) and of the hosted XML as ratios to bare servers
 * sending the same bytes over the same TLS. Checks on the way that every refresh after the first is
 * a conditional GET and that no 304 or unchanged body reaches the parser pool.
 *
 * Environment: FEEDMILL_BENCH_MODES (`embedded,cluster`), FEEDMILL_BENCH_FEEDS (`1000,10000`),
 * FEEDMILL_BENCH_ROUNDS (measured rounds per workload, 3), FEEDMILL_BENCH_SAMPLE_304 (feeds per 304
 * round, 2000), FEEDMILL_BENCH_SAMPLE_CHANGED (feeds per changed round, 150),
 * FEEDMILL_BENCH_HTTP_RUNS (3), FEEDMILL_BENCH_HTTP_SECONDS (4), FEEDMILL_BENCH_HTTP_CONNECTIONS (16),
 * FEEDMILL_BENCH_CASSANDRA (`127.0.0.1:9042`), FEEDMILL_BENCH_REDIS_URL (`redis://127.0.0.1:6379`),
 * FEEDMILL_BENCH_PARTS (`refresh,http`; `once` adds two workers on one queue, cluster mode only),
 * FEEDMILL_BENCH_ONCE_FEEDS (10000), FEEDMILL_BENCH_PROFILE_DIR (CPU profile of the API).
 */
import { loadavg } from 'node:os';
import { clusterServices } from './cluster-services.js';
import { formatRows, median } from './poll/table.js';
import { runHttpCase, type HttpCase } from './poll/http.js';
import { deployment, type ModeName } from './poll/modes.js';
import { runOnceCase, type OnceCase } from './poll/once.js';
import { runRefreshCase, type MeasuredRound, type RefreshCase } from './poll/refresh.js';
import { startPollSource } from './poll/source.js';

export type PollEnv = Record<string, string | undefined>;

const list = (value: string | undefined, fallback: string): string[] =>
  (value ?? fallback)
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text.length > 0);
const whole = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`Expected a whole number above 0, got "${value}"`);
  return parsed;
};

const rates = (rounds: readonly MeasuredRound[]): number[] => rounds.map((round) => round.rate);
const cell = (values: readonly number[], digits = 0): string =>
  values.length < 2
    ? (values[0] ?? NaN).toFixed(digits)
    : `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

function refreshTable(cases: readonly RefreshCase[]): string {
  const rows = cases.flatMap((result) => {
    const parses = (rounds: readonly MeasuredRound[]) => rounds.reduce((sum, round) => sum + round.parses, 0);
    const statuses = (rounds: readonly MeasuredRound[]) => {
      const merged: Record<string, number> = {};
      for (const round of rounds) for (const [status, n] of Object.entries(round.statuses)) merged[status] = (merged[status] ?? 0) + n;
      return Object.entries(merged)
        .map(([status, n]) => `${status} ${n}`)
        .join(', ');
    };
    const workloads: [string, readonly MeasuredRound[]][] = [
      ['304', result.notModified],
      ['200, same body', [result.sameBody]],
      ['changed ~100 KB', result.changed],
    ];
    return workloads.map(([workload, rounds]) => [
      result.mode,
      String(result.feeds),
      workload,
      cell(rates(rounds), workload.startsWith('changed') ? 1 : 0),
      median(rounds.map((round) => round.cpuMsPerRefresh)).toFixed(2),
      `${parses(rounds)} / ${rounds.reduce((sum, round) => sum + round.refreshes, 0)}`,
      statuses(rounds),
    ]);
  });
  return formatRows(['mode', 'feeds', 'workload', 'refreshes/s', 'CPU ms/refresh', 'parsed / refreshed', 'outcomes'], rows);
}

function httpTable(cases: readonly HttpCase[]): string {
  const rps = (results: HttpCase['json']) => results.map((result) => result.requestsPerSecond);
  const ratio = (ours: HttpCase['json'], bare: HttpCase['json']) =>
    ours.map((result, run) => result.requestsPerSecond / (bare[run]?.requestsPerSecond ?? NaN));
  const rows = cases.flatMap((result) => [
    [
      result.mode,
      'GET /v1/feeds/:id (50 items)',
      cell(rps(result.json)),
      'bare Fastify, same JSON Buffer',
      cell(rps(result.bareJsonBytes)),
      cell(ratio(result.json, result.bareJsonBytes), 2),
    ],
    [
      result.mode,
      '',
      '',
      'bare Fastify, same object',
      cell(rps(result.bareJsonObject)),
      cell(ratio(result.json, result.bareJsonObject), 2),
    ],
    [
      result.mode,
      'GET /feeds/:id.xml (hosted)',
      cell(rps(result.xml)),
      'bare node:https, same Buffer',
      cell(rps(result.bareXml)),
      cell(ratio(result.xml, result.bareXml), 2),
    ],
    [result.mode, '', '', 'bare Fastify, same Buffer', cell(rps(result.bareFastifyXml)), cell(ratio(result.xml, result.bareFastifyXml), 2)],
  ]);
  return formatRows(['mode', 'feedmill route', 'req/s', 'baseline', 'req/s', 'ratio'], rows);
}

/** The cluster's figures as a share of the embedded ones: raw per run, and each over its own bare baseline. */
function crossModeTable(embedded: HttpCase, cluster: HttpCase): string {
  const perRun = (ours: HttpCase['json'], theirs: HttpCase['json']) =>
    ours.map((result, run) => result.requestsPerSecond / (theirs[run]?.requestsPerSecond ?? NaN));
  const normalised = (ours: HttpCase['json'], oursBare: HttpCase['json'], theirs: HttpCase['json'], theirsBare: HttpCase['json']) =>
    perRun(ours, oursBare).map((ratio, run) => ratio / (perRun(theirs, theirsBare)[run] ?? NaN));
  return formatRows(
    ['route', 'cluster ÷ embedded req/s', 'against bare (same JSON Buffer / node:https)'],
    [
      [
        'GET /v1/feeds/:id (50 items)',
        cell(perRun(cluster.json, embedded.json), 2),
        cell(normalised(cluster.json, cluster.bareJsonBytes, embedded.json, embedded.bareJsonBytes), 2),
      ],
      [
        'GET /feeds/:id.xml (hosted)',
        cell(perRun(cluster.xml, embedded.xml), 2),
        cell(normalised(cluster.xml, cluster.bareXml, embedded.xml, embedded.bareXml), 2),
      ],
    ],
  );
}

export async function runPoll(env: PollEnv): Promise<void> {
  const modes = list(env.FEEDMILL_BENCH_MODES, 'embedded,cluster') as ModeName[];
  const feeds = list(env.FEEDMILL_BENCH_FEEDS, '1000,10000').map((text) => whole(text, 1000));
  const parts = list(env.FEEDMILL_BENCH_PARTS, 'refresh,http');
  const rounds = whole(env.FEEDMILL_BENCH_ROUNDS, 3);
  const cluster = {
    ...clusterServices(env),
  };
  const loadBefore = loadavg();
  const started = performance.now();
  const source = await startPollSource();
  const refreshCases: RefreshCase[] = [];
  const httpCases: HttpCase[] = [];
  const onceCases: OnceCase[] = [];
  try {
    for (const mode of modes) {
      if (parts.includes('once') && mode === 'cluster') {
        const count = whole(env.FEEDMILL_BENCH_ONCE_FEEDS, 10_000);
        process.stderr.write(`poll: cluster, two workers, ${count} feeds, each due twice\n`);
        const target = deployment(mode, cluster);
        // The feeds' own first plan (FEEDMILL_POLL_MIN_INTERVAL after creation) stays out of the run.
        Object.assign(target.env, { FEEDMILL_POLL_MIN_INTERVAL: '43200', FEEDMILL_POLL_MAX_INTERVAL: '86400' });
        try {
          onceCases.push(await runOnceCase(source, target, count, 2));
        } finally {
          await target.dispose();
        }
      }
      if (parts.includes('refresh')) {
        for (const count of feeds) {
          process.stderr.write(`poll: ${mode}, ${count} feeds\n`);
          const target = deployment(mode, cluster);
          try {
            refreshCases.push(
              await runRefreshCase(source, target, {
                feeds: count,
                rounds,
                sample304: whole(env.FEEDMILL_BENCH_SAMPLE_304, 2000),
                sampleChanged: whole(env.FEEDMILL_BENCH_SAMPLE_CHANGED, 150),
              }),
            );
          } finally {
            await target.dispose();
          }
        }
      }
      if (parts.includes('http')) {
        process.stderr.write(`poll: ${mode}, HTTP throughput\n`);
        const target = deployment(mode, cluster);
        try {
          httpCases.push(
            await runHttpCase(source, target, {
              runs: whole(env.FEEDMILL_BENCH_HTTP_RUNS, 3),
              items: 50,
              connections: whole(env.FEEDMILL_BENCH_HTTP_CONNECTIONS, 16),
              warmupSeconds: 1,
              seconds: whole(env.FEEDMILL_BENCH_HTTP_SECONDS, 4),
            }),
          );
        } finally {
          await target.dispose();
        }
      }
    }
  } finally {
    await source.close();
  }
  const load = (values: number[]): string => values.map((value) => value.toFixed(2)).join(' ');
  if (refreshCases.length > 0) {
    console.log(`poll: refreshes per second of one worker process; median of ${rounds} rounds (min–max)`);
    console.log(refreshTable(refreshCases));
    const unconditional = refreshCases.reduce((sum, result) => sum + result.unconditional, 0);
    const parsedUnchanged = refreshCases.reduce(
      (sum, result) => sum + result.sameBody.parses + result.notModified.reduce((total, round) => total + round.parses, 0),
      0,
    );
    console.log(
      `refreshes after the first sent without If-None-Match/If-Modified-Since: ${unconditional}; 304s or unchanged bodies parsed: ${parsedUnchanged}`,
    );
    if (unconditional > 0 || parsedUnchanged > 0) process.exitCode = 1;
  }
  for (const result of onceCases) {
    console.log(
      `poll: two workers, one queue, ${result.feeds} feeds, each made due ${result.phases.length} times; refresh jobs run per worker: ${result.perWorker.join(' + ')}`,
    );
    const rows = result.phases.map((phase, n) => [
      String(n + 1),
      String(phase.feeds),
      String(phase.once),
      `${phase.duplicated} (${phase.extraFetches} extra)`,
      String(phase.skipped),
      (phase.feeds / (phase.ms / 1000)).toFixed(0),
    ]);
    console.log(formatRows(['due time', 'feeds', 'fetched once', 'more than once', 'never', 'refreshes/s'], rows));
    if (result.phases.some((phase) => phase.duplicated > 0 || phase.skipped > 0)) process.exitCode = 1;
  }
  if (httpCases.length > 0) {
    console.log('poll: HTTPS requests per second, same certificate everywhere; median of runs (min–max), ratio per run');
    console.log(httpTable(httpCases));
    const embedded = httpCases.find((result) => result.mode === 'embedded');
    const clustered = httpCases.find((result) => result.mode === 'cluster');
    if (embedded && clustered) {
      console.log(
        'poll: cluster ÷ embedded, this run (goal ≥ 0.8); "against bare" divides each by its own bare baseline of the same run, which cancels load that changed between the two modes',
      );
      console.log(crossModeTable(embedded, clustered));
    }
  }
  console.log(
    `load average (1/5/15 min) before: ${load(loadBefore)}, after: ${load(loadavg())}; ${((performance.now() - started) / 60_000).toFixed(1)} min`,
  );
}
