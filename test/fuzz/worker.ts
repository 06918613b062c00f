import { workerData, parentPort } from 'node:worker_threads';
import fc from 'fast-check';
import { gatherSeeds, loadDictionary, loadTarget } from './corpus.js';
import { inputArbitrary, inputBytes, type InputDescription } from './inputs.js';

/** What the runner hands a fuzzing worker. */
export interface WorkerOptions {
  name: string;
  seconds: number;
  /** When set, exactly this many mutations after the seeds (no time limit): a reproducible pass. */
  runs?: number;
  seed: number;
  /** [length, unused] as Int32, then the start time (ms) as Float64, then the input bytes: read by the runner when a call hangs. */
  current: SharedArrayBuffer;
}

/** What a worker reports when its time is up (or it found something). */
export interface WorkerReport {
  executions: number;
  seeds: number;
  tokens: number;
  seconds: number;
  finding?: { message: string; input: Uint8Array; seed: number; path: string | undefined };
}

const options = workerData as WorkerOptions;
const target = await loadTarget(options.name);
const seeds = gatherSeeds(options.name, target);
const tokens = loadDictionary(target.dictionary);
const header = new Int32Array(options.current, 0, 2);
const started = new Float64Array(options.current, 8, 1);
const buffer = new Uint8Array(options.current, 16);

let executions = 0;
const execute = (input: InputDescription): void => {
  const data = inputBytes(input, seeds, tokens);
  buffer.set(data);
  header[0] = data.length;
  started[0] = Date.now();
  executions += 1;
  try {
    target.run(data);
  } finally {
    started[0] = 0;
  }
};

const began = performance.now();
// Every seed runs first, unchanged; then mutations until the time is up.
const examples: [InputDescription][] = seeds.map((_, seed) => [{ kind: 'seed', seed, mutations: [] }]);
const details = fc.check(fc.property(inputArbitrary(seeds.length, tokens.length), execute), {
  seed: options.seed,
  examples,
  ...(options.runs === undefined
    ? { numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: options.seconds * 1000, markInterruptAsFailure: false }
    : { numRuns: options.runs }),
});
const report: WorkerReport = { executions, seeds: seeds.length, tokens: tokens.length, seconds: (performance.now() - began) / 1000 };
if (details.failed && details.counterexample) {
  const error = details.errorInstance;
  report.finding = {
    message: error instanceof Error ? error.message : String(error),
    input: inputBytes(details.counterexample[0], seeds, tokens),
    seed: details.seed,
    path: details.counterexamplePath ?? undefined,
  };
}
parentPort?.postMessage(report);
