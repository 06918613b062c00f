/**
 * One extractor over every page of the benchmark, in a process of its own:
 * `node dist/bench/fulltext/child.js EXTRACTOR DIR` prints one JSON line (a ChildResult).
 * Time is the process's CPU time (user + system) spent inside the extractor, summed over pages:
 * on a machine shared with other work the wall clock measures the neighbours. Memory is the
 * kernel's high-water mark of the process (getrusage ru_maxrss) at the end; every child reads the
 * same pages the same way, so the difference is the extractor's.
 */
import { extractorNames, loadExtractor, type ExtractorName } from './extractors.js';
import { loadPages, pageBody } from './pages.js';

export interface ChildResult {
  extractor: ExtractorName;
  /** Page key → extracted text. */
  texts: Record<string, string>;
  /** Pages the extractor threw on, with the message. */
  failed: { key: string; message: string }[];
  cpuMs: number;
  peakRssMb: number;
}

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  const [name, dir] = process.argv.slice(2);
  if (!extractorNames.includes(name as ExtractorName) || dir === undefined) {
    throw new Error(`Expected EXTRACTOR (${extractorNames.join(', ')}) DIR, got ${process.argv.slice(2).join(' ')}`);
  }
  const extractor = name as ExtractorName;
  const extract = await loadExtractor(extractor);
  const result: ChildResult = { extractor, texts: {}, failed: [], cpuMs: 0, peakRssMb: 0 };
  for (const page of loadPages(dir)) {
    const body = pageBody(dir, page.key);
    const start = cpuMs();
    try {
      result.texts[page.key] = extract(body, page.url);
    } catch (error) {
      result.texts[page.key] = '';
      result.failed.push({ key: page.key, message: error instanceof Error ? error.message : String(error) });
    }
    result.cpuMs += cpuMs() - start;
  }
  result.peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
