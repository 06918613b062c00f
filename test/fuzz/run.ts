/**
 * `npm run fuzz -- TARGET|all [--seconds N] [--seed N]`: fuzzes the named target (or each in turn)
 * for N seconds (default 60) in a worker thread, and saves each finding's input to
 * `.cache/fuzz/<target>/findings/`. `--ci` is CI's bounded pass instead: the fixed seed (or
 * `--seed`), each target's `ciRuns` mutations, the time bound with CI's slack — the same inputs on
 * every machine, so a pass that is green here is green in CI; searching for new findings is what
 * the timed runs are for. `npm run fuzz -- TARGET --input FILE` runs one input once;
 * `--skip NAME` (repeatable) leaves a target out of `all`, loudly.
 * Exits 1 when anything was found. Targets: test/fuzz/targets/*.ts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { repoRoot } from '../fixtures/repo-root.js';
import { loadTarget, scratchDirectory, targetNames } from './corpus.js';
import { maxInputBytes } from './inputs.js';
import type { WorkerOptions, WorkerReport } from './worker.js';

/** A call still running after this long is a hang: far past any time bound (test/fuzz/safety.ts), even on a loaded machine. */
const hangSeconds = 30;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '60' },
    seed: { type: 'string' },
    ci: { type: 'boolean', default: false },
    input: { type: 'string' },
    skip: { type: 'string', multiple: true, default: [] },
  },
});
const names = targetNames();
const asked = positionals[0];
const seconds = Number(values.seconds);
if (asked === undefined || (asked !== 'all' && !names.includes(asked)) || !(seconds > 0)) {
  console.error(
    `Expected \`npm run fuzz -- TARGET|all [--seconds N]\` with TARGET one of ${names.join(', ')}, got ${process.argv.slice(2).join(' ') || 'nothing'}`,
  );
  process.exit(2);
}

/** CI's seed: any fixed number makes its pass reproducible; changing it is a change to CI's inputs. */
const ciSeed = 20261127;
const ciDefaultRuns = 3000;
if (values.ci) process.env['FEEDMILL_FUZZ_TIME_SLACK'] ??= '2';

interface Outcome extends WorkerReport {
  name: string;
  load: number;
}

function saveFinding(name: string, message: string, input: Uint8Array): string {
  const directory = join(scratchDirectory(name), 'findings');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, createHash('sha256').update(input).digest('hex').slice(0, 16));
  writeFileSync(file, input);
  writeFileSync(`${file}.txt`, `${message}\n`);
  return relative(repoRoot, file);
}

async function fuzz(name: string): Promise<Outcome> {
  const current = new SharedArrayBuffer(16 + maxInputBytes);
  const seed = values.seed !== undefined ? Number(values.seed) : values.ci ? ciSeed : Math.floor(Math.random() * 2 ** 31);
  const runs = values.ci ? ((await loadTarget(name)).ciRuns ?? ciDefaultRuns) : undefined;
  const workerOptions: WorkerOptions = { name, seconds, seed, current, ...(runs === undefined ? {} : { runs }) };
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: workerOptions });
  const load = loadavg()[0] ?? 0;
  const began = Date.now();
  const currentInput = (): Uint8Array => new Uint8Array(current, 16, new Int32Array(current, 0, 1)[0]).slice();
  const started = new Float64Array(current, 8, 1);
  const budget = runs === undefined ? `for ${seconds} s` : `for ${runs} mutations`;
  console.log(`fuzz: ${name} ${budget} (seed ${seed}, load average ${load.toFixed(2)})`);
  return new Promise((resolve) => {
    const stop = (message: string): void => {
      clearInterval(watch);
      const input = currentInput();
      void worker.terminate();
      const executed = { executions: Number.NaN, seeds: Number.NaN, tokens: Number.NaN, seconds: (Date.now() - began) / 1000 };
      resolve({ ...executed, name, load, finding: { message, input, seed, path: undefined } });
    };
    const watch = setInterval(() => {
      const since = started[0] ?? 0;
      if (since > 0 && Date.now() - since > hangSeconds * 1000) stop(`hang: one call ran for more than ${hangSeconds} s`);
      // Shrinking a finding may run past the budget; not without end.
      else if (Date.now() - began > (seconds + 300) * 1000) stop(`hang: the run did not end ${seconds + 300} s after it began`);
    }, 1000);
    worker.once('message', (report: WorkerReport) => {
      clearInterval(watch);
      void worker.terminate();
      resolve({ ...report, name, load });
    });
    worker.once('error', (error) => stop(`crash: the worker died (${error.message})`));
  });
}

if (values.input !== undefined) {
  const target = await loadTarget(asked);
  target.run(readFileSync(values.input));
  console.log(`fuzz: ${asked} accepted ${values.input}`);
} else {
  let found = 0;
  const skipped = values.skip ?? [];
  if (skipped.length > 0) console.log(`fuzz: SKIPPING ${skipped.join(', ')} (--skip)`);
  for (const name of asked === 'all' ? names.filter((name) => !skipped.includes(name)) : [asked]) {
    const outcome = await fuzz(name);
    const rate = outcome.executions / outcome.seconds;
    if (Number.isNaN(outcome.executions)) console.log(`fuzz: ${name}: stopped after ${outcome.seconds.toFixed(1)} s`);
    else
      console.log(
        `fuzz: ${name}: ${outcome.executions} executions in ${outcome.seconds.toFixed(1)} s (${rate.toFixed(0)}/s), ` +
          `${outcome.seeds} seeds, ${outcome.tokens} dictionary tokens, load average ${outcome.load.toFixed(2)} at the start`,
      );
    if (outcome.finding) {
      found += 1;
      const file = saveFinding(name, outcome.finding.message, outcome.finding.input);
      console.log(
        `fuzz: ${name}: FINDING (${outcome.finding.input.length} bytes) saved to ${file}\n  ${outcome.finding.message.split('\n').slice(0, 6).join('\n  ')}`,
      );
      console.log(
        `  replay: npm run fuzz -- ${name} --input ${file}` +
          (outcome.finding.path ? `   (fast-check seed ${outcome.finding.seed}, path ${outcome.finding.path})` : ''),
      );
    }
  }
  if (found > 0) process.exitCode = 1;
}
