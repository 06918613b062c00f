/** The speed table: medians over the runs per parser × dataset, then the goals of the issue checked against them. */
import type { ParserName } from './adapters.js';
import type { ChildResult } from './child.js';

/** `dataset \0 parser` → one result per run. */
export type Measured = Map<string, ChildResult[]>;

interface Row {
  parser: ParserName;
  mbps: number;
  mbpsMin: number;
  mbpsMax: number;
  itemsPerSecond: number;
  roundMs: number;
  peakRssMb: number;
  deltaRssMb: number;
  peakHeapMb: number;
  check: string;
  /** Rejected or miscounted documents: its speed is not a fair number. */
  failed: boolean;
  allRejected: boolean;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const fixed = (value: number, digits = 1): string => value.toFixed(digits);

function row(parser: ParserName, results: ChildResult[]): Row {
  const first = results[0] as ChildResult;
  const mbps = results.map((r) => r.bytes / 1024 / 1024 / (r.roundMs / 1000));
  const roundMs = median(results.map((r) => r.roundMs));
  const documents = first.rejected.length + first.wrongCount.length;
  const check =
    first.rejected.length > 0
      ? `REJECTED ${first.rejected.length}: ${first.rejected.map((r) => `${r.file.split('/').pop()} (${r.message})`).join('; ')}`
      : first.wrongCount.length > 0
        ? `WRONG COUNT ${first.wrongCount.length}: ${first.wrongCount.map((w) => `${w.file.split('/').pop()} ${w.actual}≠${w.expected}`).join('; ')}`
        : 'ok';
  return {
    parser,
    mbps: median(mbps),
    mbpsMin: Math.min(...mbps),
    mbpsMax: Math.max(...mbps),
    itemsPerSecond: first.items / (roundMs / 1000),
    roundMs,
    peakRssMb: median(results.map((r) => r.peakRssMb)),
    deltaRssMb: median(results.map((r) => r.peakRssMb - r.baseRssMb)),
    peakHeapMb: median(results.map((r) => r.peakHeapMb)),
    check,
    failed: documents > 0,
    allRejected: first.items === 0 && first.rejected.length > 0,
  };
}

export function formatSpeed(measured: Measured, datasets: string[], parsers: ParserName[], runs: number): string {
  const lines: string[] = [];
  const rows = new Map<string, Map<ParserName, Row>>();
  for (const dataset of datasets) {
    const byParser = new Map<ParserName, Row>();
    for (const parser of parsers) {
      const results = measured.get(`${dataset}\u0000${parser}`);
      if (results !== undefined && results.length > 0) byParser.set(parser, row(parser, results));
    }
    rows.set(dataset, byParser);
    const any = measured.get(`${dataset}\u0000${parsers[0]}`)?.[0];
    const ours = byParser.get('feedmill');
    lines.push(`${dataset}: ${any === undefined ? '' : `${fixed(any.bytes / 1024 / 1024, 2)} MB`}, medians of ${runs} run(s)`);
    lines.push(
      `${'parser'.padEnd(23)} ${'MB/s'.padStart(7)} ${'(min–max)'.padStart(13)} ${'items/s'.padStart(9)} ${'feedmill ×'.padStart(10)} ${'peak RSS'.padStart(9)} ${'Δ RSS'.padStart(7)} ${'heap'.padStart(7)}  check`,
    );
    for (const r of byParser.values()) {
      const speed = r.allRejected
        ? 'rejected'.padStart(7 + 1 + 13 + 1 + 9)
        : `${fixed(r.mbps).padStart(7)} ${`(${fixed(r.mbpsMin)}–${fixed(r.mbpsMax)})`.padStart(13)} ${fixed(r.itemsPerSecond, 0).padStart(9)}`;
      const ratio = ours === undefined || r.allRejected ? '' : `${fixed(ours.mbps / r.mbps, 2)}×`;
      lines.push(
        `${r.parser.padEnd(23)} ${speed} ${ratio.padStart(10)} ${fixed(r.peakRssMb).padStart(9)} ${fixed(r.deltaRssMb).padStart(7)} ${fixed(r.peakHeapMb).padStart(7)}  ${r.check}`,
      );
    }
    lines.push('');
  }
  lines.push(...goals(rows));
  return lines.join('\n');
}

/** The issue's goals for parseFeed, each with the measured value. */
function goals(rows: Map<string, Map<ParserName, Row>>): string[] {
  const lines = ['goals (feedmill = parseFeed inline)'];
  const verdict = (ok: boolean): string => (ok ? 'met   ' : 'MISSED');
  for (const [dataset, byParser] of rows) {
    const ours = byParser.get('feedmill');
    if (ours === undefined) continue;
    if (ours.failed) lines.push(`MISSED ${dataset}: feedmill ${ours.check}`);
    const against = (peer: ParserName, goal: number): void => {
      const r = byParser.get(peer);
      if (r === undefined) return;
      if (r.allRejected) lines.push(`n/a    ${dataset}: ≥ ${goal}× ${peer}: it rejects the document`);
      else lines.push(`${verdict(ours.mbps / r.mbps >= goal)} ${dataset}: ≥ ${goal}× ${peer}: ${fixed(ours.mbps / r.mbps, 2)}×`);
    };
    against('rss-parser', 1.5);
    against('feed-extractor', 2.5);
    against('feed-extractor-trimmed', 2.5);
    against('feedparser', 2.5);
    const ceiling = byParser.get('htmlparser2-sax');
    if (ceiling !== undefined && !ceiling.allRejected)
      lines.push(
        `share  ${dataset}: feedmill runs at ${fixed((100 * ours.mbps) / ceiling.mbps, 0)}% of raw htmlparser2 SAX (the tokenizer alone, the ceiling)`,
      );
  }
  const big = rows.get('generated 10 MB');
  const small = rows.get('generated 1 MB');
  const ours10 = big?.get('feedmill');
  if (big !== undefined && ours10 !== undefined) {
    // Feed parsers only: the raw tokenizers build nothing, so their memory is no comparison.
    const peers = [...big.values()].filter(
      (r) => !['feedmill', 'feedmill-pool', 'fast-xml-parser', 'htmlparser2-sax', 'saxes-sax'].includes(r.parser) && !r.allRejected,
    );
    const lowest = peers.reduce<Row | undefined>((low, r) => (low === undefined || r.peakRssMb < low.peakRssMb ? r : low), undefined);
    if (lowest !== undefined)
      lines.push(
        `${verdict(ours10.peakRssMb < lowest.peakRssMb)} 10 MB peak RSS below every peer: ${fixed(ours10.peakRssMb)} MB, lowest peer ${lowest.parser} ${fixed(lowest.peakRssMb)} MB`,
      );
    const ours1 = small?.get('feedmill');
    if (ours1 !== undefined)
      lines.push(`${verdict(ours10.roundMs / ours1.roundMs <= 12)} time 10 MB / 1 MB ≤ 12: ${fixed(ours10.roundMs / ours1.roundMs, 2)}`);
  }
  return lines;
}
