/** `node dist/bench/run.js [name]`: runs the named benchmark, or all of them. */
import { runAccuracy } from './accuracy.js';
import { runParseSpeed } from './parse-speed.js';

const benchmarks: Record<string, () => void | Promise<void>> = {
  accuracy: () => runAccuracy(process.env),
  'feedparser-suite': async () => (await import('./feedparser-suite.js')).runFeedparserSuite(process.env),
  parse: () => runParseSpeed(process.env),
  events: async () => (await import('./events.js')).runEvents(process.env),
  poll: async () => (await import('./poll.js')).runPoll(process.env),
  load: async () => (await import('./load.js')).runLoad(process.env),
  dedupe: async () => (await import('./dedupe.js')).runDedupe(process.env),
  fulltext: async () => (await import('./fulltext.js')).runFulltext(process.env),
  render: async () => (await import('./render.js')).runRender(process.env),
  idle: async () => (await import('./idle.js')).runIdle(process.env),
  scale: async () => (await import('./scale.js')).runScale(process.env),
  soak: async () => (await import('./soak.js')).runSoak(process.env),
};

const name = process.argv[2];
if (name !== undefined && !(name in benchmarks)) {
  console.error(`Expected a benchmark name (${Object.keys(benchmarks).join(', ')}), got "${name}"`);
  process.exitCode = 2;
} else {
  for (const [benchmark, run] of Object.entries(benchmarks)) {
    if (name === undefined || name === benchmark) await run();
  }
}
