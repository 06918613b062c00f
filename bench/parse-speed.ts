/**
 * `node dist/bench/run.js parse`: the same documents through parseFeed (inline and through the
 * piscina pool), rss-parser, @extractus/feed-extractor, feedparser, bare fast-xml-parser, and the raw
 * htmlparser2 and saxes tokenizers (the ceiling: tokenizing alone), each parser × dataset in a
 * child process of its own, repeated FEEDMILL_BENCH_RUNS times
 * (interleaved, so a burst of load on the shared machine hits every parser alike); medians printed.
 *
 * Environment: FEEDMILL_BENCH_RUNS (default 5), FEEDMILL_BENCH_MIN_MS (CPU time measured per child,
 * default 1500), FEEDMILL_BENCH_WARMUP_MS (CPU time of untimed rounds before, default 1500),
 * FEEDMILL_BENCH_PARSERS and FEEDMILL_BENCH_DATASETS (comma-separated filters: `feedmill,rss-parser`,
 * `real,1,10`), FEEDMILL_CORPUS_DIR.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateCorpusDir } from './corpus-dir.js';
import { parserNames, type ParserName } from './parse-speed/adapters.js';
import type { ChildResult, Manifest } from './parse-speed/child.js';
import { generated, realFeeds, writeManifest } from './parse-speed/datasets.js';
import { formatSpeed, type Measured } from './parse-speed/table.js';

export interface SpeedEnv {
  FEEDMILL_BENCH_RUNS?: string | undefined;
  FEEDMILL_BENCH_MIN_MS?: string | undefined;
  FEEDMILL_BENCH_WARMUP_MS?: string | undefined;
  FEEDMILL_BENCH_PARSERS?: string | undefined;
  FEEDMILL_BENCH_DATASETS?: string | undefined;
  FEEDMILL_CORPUS_DIR?: string | undefined;
}

const childPath = fileURLToPath(new URL('./parse-speed/child.js', import.meta.url));

export function runParseSpeed(env: SpeedEnv): void {
  const runs = Math.max(1, Number(env.FEEDMILL_BENCH_RUNS ?? 5));
  const minMs = Number(env.FEEDMILL_BENCH_MIN_MS ?? 1500);
  const warmupMs = Number(env.FEEDMILL_BENCH_WARMUP_MS ?? 1500);
  const parsers = selected(env.FEEDMILL_BENCH_PARSERS, parserNames);
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-bench-'));
  try {
    const datasets = new Map<string, () => Manifest>([
      ['real', () => realFeeds(locateCorpusDir(env.FEEDMILL_CORPUS_DIR))],
      ['1', () => generated(dir, 1)],
      ['10', () => generated(dir, 10)],
    ]);
    const keys = selected(env.FEEDMILL_BENCH_DATASETS, [...datasets.keys()]);
    const manifests = keys.map((key, index) => {
      const manifest = (datasets.get(key) as () => Manifest)();
      return { manifest, path: writeManifest(dir, manifest, index) };
    });
    const measured: Measured = new Map();
    for (let run = 1; run <= runs; run++) {
      for (const { manifest, path } of manifests) {
        for (const parser of parsers) {
          process.stderr.write(`run ${run}/${runs}: ${manifest.name}, ${parser}\n`);
          const result = runChild(parser, path, minMs, warmupMs);
          const key = `${manifest.name}\u0000${parser}`;
          measured.set(key, [...(measured.get(key) ?? []), result]);
        }
      }
    }
    console.log(
      formatSpeed(
        measured,
        manifests.map((m) => m.manifest.name),
        parsers,
        runs,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(parser: ParserName, manifest: string, minMs: number, warmupMs: number): ChildResult {
  const child = spawnSync(process.execPath, ['--expose-gc', childPath, parser, manifest, String(minMs), String(warmupMs)], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) {
    throw new Error(`Expected the ${parser} child to print a result, got exit ${child.status}: ${child.stderr.slice(-600)}`);
  }
  return JSON.parse(line) as ChildResult;
}

function selected<T extends string>(filter: string | undefined, all: readonly T[]): T[] {
  if (!filter) return [...all];
  const wanted = filter.split(',').map((s) => s.trim());
  const unknown = wanted.filter((w) => !all.includes(w as T));
  if (unknown.length > 0) throw new Error(`Expected names from ${all.join(', ')}, got ${unknown.join(', ')}`);
  return all.filter((name) => wanted.includes(name));
}
