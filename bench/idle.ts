/**
 * `node dist/bench/run.js idle`: the resident memory of `feedmill all` (the process and its threads,
 * /proc/PID/status VmRSS; a browser's processes, if one ran, in a column of their own) on a fresh
 * data directory: 10 s and 60 s after start with no feed, then with FEEDMILL_BENCH_IDLE_FEEDS feeds
 * polling a local fixture source, first answering 304, then publishing a new ~100 KB document at
 * every request (each refresh parsed). Prints a table and one JSON line.
 *
 * Environment: FEEDMILL_BENCH_IDLE_FEEDS (1000), FEEDMILL_BENCH_IDLE_POLL_SECONDS (60: every feed's
 * poll interval, floor and ceiling alike), FEEDMILL_BENCH_IDLE_PHASE_SECONDS (90: each polling
 * phase, sampled every second).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { freePort, runCommand, startRole, stopChild } from './feedmill-binary.js';
import { deployment } from './poll/modes.js';
import { startPollSource, type PollSource } from './poll/source.js';
import { formatRows } from './poll/table.js';

export type IdleEnv = Record<string, string | undefined>;

interface Sample {
  rssMb: number;
  threads: number;
  /** Resident memory of the process's descendants (a browser), MB. */
  childrenMb: number;
}

const whole = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`Expected a whole number above 0, got "${value}"`);
  return parsed;
};

function status(pid: number): { rssKb: number; threads: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  return { rssKb: field('VmRSS'), threads: field('Threads') };
}

/** Every descendant of `pid`, read from each thread's `children` list (Linux ≥ 3.5). */
function descendants(pid: number): number[] {
  const direct = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
      .split(' ')
      .filter((text) => text.trim() !== '')
      .map(Number),
  );
  return direct.flatMap((child) => [child, ...descendants(child)]);
}

function sample(pid: number): Sample {
  const own = status(pid);
  let childrenKb = 0;
  for (const child of descendants(pid)) childrenKb += status(child).rssKb;
  return { rssMb: own.rssKb / 1024, threads: own.threads, childrenMb: childrenKb / 1024 };
}

/** Samples every second for `seconds`: the highest and the last. */
async function phase(pid: number, seconds: number): Promise<{ peak: Sample; last: Sample }> {
  let peak = sample(pid);
  let last = peak;
  for (let s = 0; s < seconds; s++) {
    await sleep(1000);
    last = sample(pid);
    if (last.rssMb > peak.rssMb) peak = last;
  }
  return { peak, last };
}

/** Creates `count` feeds through POST /v1/feeds, four at a time (each a first fetch and parse). */
async function createFeeds(pool: Pool, authorization: string, source: PollSource, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let n = next++; n < count; n = next++) {
        const response = await pool.request({
          method: 'POST',
          path: '/v1/feeds',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ url: source.feedUrl(n) }),
        });
        const text = await response.body.text();
        if (response.statusCode !== 200)
          throw new Error(`Expected 200 creating feed ${n}, got ${response.statusCode}: ${text.slice(0, 300)}`);
      }
    }),
  );
}

export async function runIdle(env: IdleEnv): Promise<void> {
  const feeds = whole(env.FEEDMILL_BENCH_IDLE_FEEDS, 1000);
  const poll = whole(env.FEEDMILL_BENCH_IDLE_POLL_SECONDS, 60);
  const phaseSeconds = whole(env.FEEDMILL_BENCH_IDLE_PHASE_SECONDS, 90);
  const source = await startPollSource();
  // Embedded mode only: the cluster settings are not read.
  const target = deployment('embedded', { cassandra: '', redisUrl: '' }, 'idle');
  const port = await freePort();
  const childEnv = {
    ...process.env,
    ...target.env,
    FEEDMILL_PORT: String(port),
    FEEDMILL_POLL_MIN_INTERVAL: String(poll),
    FEEDMILL_POLL_MAX_INTERVAL: String(poll),
    // The creation loop is not what is measured: no 429 on the way.
    FEEDMILL_RATE_LIMIT: '1000000',
  };
  const rows: string[][] = [];
  const result: Record<string, number | string> = { feeds, poll_seconds: poll };
  const record = (what: string, key: string, at: Sample, peak?: Sample, note = ''): void => {
    rows.push([what, at.rssMb.toFixed(1), peak ? peak.rssMb.toFixed(1) : '', String(at.threads), at.childrenMb.toFixed(1), note]);
    result[`${key}_rss_mb`] = Number(at.rssMb.toFixed(1));
    if (peak) result[`${key}_peak_rss_mb`] = Number(peak.rssMb.toFixed(1));
    result[`${key}_threads`] = at.threads;
  };
  const spawned = Date.now();
  const api = await startRole('all', childEnv, target.dataDir);
  const pid = api.child.pid as number;
  const pool = new Pool(`https://127.0.0.1:${port}`, { connect: { ca: api.ca, rejectUnauthorized: false }, connections: 4 });
  try {
    await sleep(Math.max(0, spawned + 10_000 - Date.now()));
    record('no feed, 10 s after start', 'idle_10s', sample(pid));
    await sleep(Math.max(0, spawned + 60_000 - Date.now()));
    record('no feed, 60 s after start', 'idle_60s', sample(pid));

    const printed = await runCommand(['keys', 'create', '--account', 'bench-idle', '--scopes', 'read,write', '--json'], childEnv);
    // README "Commands": the last line is the JSON of the new pair.
    const created = JSON.parse(printed.trim().split('\n').at(-1) ?? '') as { key: string; secret: string };
    const started = Date.now();
    await createFeeds(pool, `Bearer ${created.key}:${created.secret}`, source, feeds);
    const createSeconds = (Date.now() - started) / 1000;
    record(`${feeds} feeds just created`, 'created', sample(pid), undefined, `${(feeds / createSeconds).toFixed(0)} creates/s`);

    source.take();
    const notModified = await phase(pid, phaseSeconds);
    const counts304 = source.take();
    record(
      `${feeds} feeds polling, 304`,
      'polling_304',
      notModified.last,
      notModified.peak,
      `${(counts304.requests / phaseSeconds).toFixed(1)} fetches/s`,
    );

    source.mode = 'changed';
    const changing = await phase(pid, phaseSeconds);
    const countsChanged = source.take();
    record(
      `${feeds} feeds polling, changed ~100 KB`,
      'polling_changed',
      changing.last,
      changing.peak,
      `${(countsChanged.status200 / phaseSeconds).toFixed(1)} parsed fetches/s`,
    );
    result.load_average = loadavg()[0]?.toFixed(1) ?? '';
  } finally {
    await pool.close();
    await stopChild(api.child);
    await source.close();
    await target.dispose();
  }
  console.log(`feedmill all, embedded, fresh data directory; load average ${result.load_average} at the end`);
  console.log(formatRows(['state', 'RSS MB', 'peak MB', 'threads', 'browser MB', 'note'], rows));
  console.log(JSON.stringify(result));
}
