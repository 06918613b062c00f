/**
 * One parser on one dataset, in a process of its own so that no other parser's heap or garbage
 * counts against it. `node --expose-gc dist/bench/parse-speed/child.js PARSER MANIFEST MIN_MS WARMUP_MS`
 * prints one JSON line (a ChildResult).
 *
 * Memory is read over the two untimed rounds only, the same two parses of each document for every
 * parser: `peakRssMb` is the kernel's high-water mark (getrusage ru_maxrss) once they are done;
 * `baseRssMb` is the RSS after the module and the documents are loaded and a full GC, before the
 * first parse; `peakHeapMb` is the largest `heapUsed` seen right after a parse of those rounds
 * returned, its result still referenced. The timed rounds come after: their number depends on the
 * parser's speed, and V8 grows the heap of a process that keeps allocating, so a high-water mark
 * taken over them would charge a fast parser for its extra rounds.
 *
 * Between the two, untimed warm-up rounds run for WARMUP_MS of CPU time. V8 compiles a hot
 * function in stages over many calls, in threads whose CPU time this process is charged for: with
 * two warm-up rounds only, the timed rounds of a parser with more code to compile measured its
 * compiler as much as its parsing (feedmill's real-feed round took 37 ms in rounds 1–25, 21 ms in
 * 26–50 and 14 ms from round 50 on; rss-parser's 29, 22 and 21 ms). A service parses for hours:
 * the steady state is what it runs at.
 */
import { readFileSync } from 'node:fs';
import { loadAdapter, parserNames, type Document, type ParserName } from './adapters.js';

export interface Manifest {
  name: string;
  documents: { file: string; contentType?: string; expectedItems?: number }[];
}

export interface ChildResult {
  parser: ParserName;
  dataset: string;
  bytes: number;
  items: number;
  /** Documents the parser threw on, with the message. */
  rejected: { file: string; message: string }[];
  /** Documents whose item count differs from the expected one. */
  wrongCount: { file: string; expected: number; actual: number }[];
  /** The median round's CPU time (see cpuMs). */
  roundMs: number;
  rounds: number;
  /** Untimed rounds after the two that measure memory, before the timed ones. */
  warmupRounds: number;
  baseRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
}

const mb = (bytes: number): number => bytes / 1024 / 1024;

/**
 * The process's CPU time (user + system, every thread: the GC's helpers and a pool's worker
 * included), in ms. Rounds are timed by it, not by the wall clock: on a shared machine at load
 * 20 the wall clock mostly measures the neighbours, and by a different amount for each child.
 */
function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const [name, manifestPath, minMsText, warmupMsText] = process.argv.slice(2);
  if (!parserNames.includes(name as ParserName) || manifestPath === undefined) {
    throw new Error(`Expected PARSER (${parserNames.join(', ')}) MANIFEST [MIN_MS [WARMUP_MS]], got ${process.argv.slice(2).join(' ')}`);
  }
  const parser = name as ParserName;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const minMs = Number(minMsText ?? 1500);
  const warmupMs = Number(warmupMsText ?? 1500);
  const adapter = await loadAdapter(parser);
  const documents: (Document & { file: string; expectedItems?: number })[] = manifest.documents.map((d) => ({
    ...d,
    body: readFileSync(d.file),
  }));
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseRss = process.memoryUsage().rss;
  let peakHeap = 0;
  let measuringMemory = true;

  const round = async (check: boolean): Promise<number> => {
    let items = 0;
    for (const doc of documents) {
      let count: number;
      try {
        count = await adapter.parse(doc);
      } catch (error) {
        if (check)
          result.rejected.push({ file: doc.file, message: (error instanceof Error ? error.message : String(error)).slice(0, 160) });
        continue;
      }
      if (measuringMemory) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      items += count;
      if (check && doc.expectedItems !== undefined && count !== doc.expectedItems)
        result.wrongCount.push({ file: doc.file, expected: doc.expectedItems, actual: count });
    }
    return items;
  };

  const result: ChildResult = {
    parser,
    dataset: manifest.name,
    bytes: documents.reduce((total, d) => total + d.body.byteLength, 0),
    items: 0,
    rejected: [],
    wrongCount: [],
    roundMs: 0,
    rounds: 0,
    warmupRounds: 0,
    baseRssMb: mb(baseRss),
    peakRssMb: 0,
    peakHeapMb: 0,
  };
  // The first round checks every document and warms the JIT; it is not timed.
  result.items = await round(true);
  // A second untimed round, so memory is read over the same two parses for every parser.
  await round(false);
  measuringMemory = false;
  result.peakRssMb = process.resourceUsage().maxRSS / 1024;
  result.peakHeapMb = mb(peakHeap);
  // Warm-up in CPU time too, so a slow parser is not warmed for fewer calls than its budget buys.
  const warmupStarted = cpuMs();
  while (cpuMs() - warmupStarted < warmupMs) {
    await round(false);
    result.warmupRounds++;
  }
  const times: number[] = [];
  // The budget is CPU time too, so a loaded machine gives every child as many rounds as a quiet one.
  const started = cpuMs();
  while (times.length < 3 || (cpuMs() - started < minMs && times.length < 500)) {
    const t0 = cpuMs();
    await round(false);
    times.push(cpuMs() - t0);
  }
  await adapter.close?.();
  times.sort((a, b) => a - b);
  result.roundMs = times[Math.floor(times.length / 2)] ?? 0;
  result.rounds = times.length;
  console.log(JSON.stringify(result));
}

await main();
