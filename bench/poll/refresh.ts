import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Deployment } from './modes.js';
import type { FromWorker, RoundResult, ToWorker } from './protocol.js';
import type { PollSource, SourceCounts, SourceMode } from './source.js';

const childPath = fileURLToPath(new URL('./worker-child.js', import.meta.url));

export interface RefreshPlan {
  feeds: number;
  /** Measured rounds of each workload. */
  rounds: number;
  /** Feeds refreshed per 304 round (rotating through all of them). */
  sample304: number;
  /** Feeds refreshed per changed-100KB round (the same ones each round, after one warm-up round). */
  sampleChanged: number;
}

export interface MeasuredRound {
  rate: number;
  cpuMsPerRefresh: number;
  parses: number;
  refreshes: number;
  statuses: Record<string, number>;
  counts: SourceCounts;
}

export interface RefreshCase {
  mode: string;
  feeds: number;
  createRate: number;
  notModified: MeasuredRound[];
  sameBody: MeasuredRound;
  changed: MeasuredRound[];
  /** Refreshes after the first fetch that went out without If-None-Match / If-Modified-Since. */
  unconditional: number;
}

/** One worker process: creates the feeds, then runs the 304, same-body and changed rounds. */
export async function runRefreshCase(source: PollSource, deployment: Deployment, plan: RefreshPlan): Promise<RefreshCase> {
  const profileDir = process.env.FEEDMILL_BENCH_PROFILE_DIR;
  const child = fork(childPath, [], {
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // The feeds' own first plan (FEEDMILL_POLL_MIN_INTERVAL after creation) half a day away: on a
    // loaded machine creating 10k feeds outlasts the default 5 minutes, and those refreshes would
    // run inside the measured rounds (a 2026-11-25 run counted 8,277 outcomes in 6,000 refreshes).
    env: {
      ...process.env,
      ...deployment.env,
      FEEDMILL_POLL_MIN_INTERVAL: '43200',
      FEEDMILL_POLL_MAX_INTERVAL: '86400',
      BENCH_POLL_FEEDS: String(plan.feeds),
      BENCH_POLL_ORIGIN: source.origin,
    },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const inbox: FromWorker[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (message: FromWorker) => {
    inbox.push(message);
    wake?.();
  });
  void exited.then(() => wake?.());
  const receive = async <T extends FromWorker['type']>(type: T): Promise<Extract<FromWorker, { type: T }>> => {
    for (;;) {
      const message = inbox.shift();
      if (message?.type === 'failed') throw new Error(`The ${deployment.mode} worker failed: ${message.message}`);
      if (message?.type === type) return message as Extract<FromWorker, { type: T }>;
      if (message) throw new Error(`Expected "${type}" from the worker, got "${message.type}"`);
      if (child.exitCode !== null)
        throw new Error(`The ${deployment.mode} worker exited (${child.exitCode}) while we waited for "${type}"`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  const post = (message: ToWorker): void => void child.send(message);
  let unconditional = 0;
  const round = async (mode: SourceMode, from: number, to: number): Promise<MeasuredRound> => {
    source.mode = mode;
    source.take();
    post({ type: 'round', from, to });
    const result: RoundResult = await receive('round');
    const counts = source.take();
    unconditional += counts.requests - counts.conditional;
    const refreshes = to - from;
    return {
      rate: refreshes / (result.ms / 1000),
      cpuMsPerRefresh: result.cpuMs / refreshes,
      parses: result.parses,
      refreshes,
      statuses: result.statuses,
      counts,
    };
  };
  try {
    source.mode = 'stable';
    source.take();
    const ready = await receive('ready');
    const label = `${deployment.mode} ${plan.feeds}`;
    process.stderr.write(`  ${label}: created ${plan.feeds} feeds (first fetch) at ${(ready.created / (ready.ms / 1000)).toFixed(0)}/s\n`);
    const notModified: MeasuredRound[] = [];
    const sample304 = Math.min(plan.sample304, plan.feeds);
    for (let r = 0; r < plan.rounds; r++) {
      const from = Math.min(r * sample304, plan.feeds - sample304);
      notModified.push(await round('stable', from, from + sample304));
      process.stderr.write(`  ${label}: 304 round ${r + 1}: ${notModified.at(-1)?.rate.toFixed(0)}/s\n`);
    }
    const sameBody = await round('same', 0, Math.min(200, plan.feeds));
    const sampleChanged = Math.min(plan.sampleChanged, plan.feeds);
    await round('changed', 0, sampleChanged);
    const changed: MeasuredRound[] = [];
    for (let r = 0; r < plan.rounds; r++) {
      changed.push(await round('changed', 0, sampleChanged));
      process.stderr.write(`  ${label}: changed round ${r + 1}: ${changed.at(-1)?.rate.toFixed(1)}/s\n`);
    }
    post({ type: 'close' });
    await receive('closed');
    return {
      mode: deployment.mode,
      feeds: plan.feeds,
      createRate: ready.created / (ready.ms / 1000),
      notModified,
      sameBody,
      changed,
      unconditional,
    };
  } finally {
    if (child.exitCode === null) {
      const timer = setTimeout(() => child.kill(), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }
}
