/** Percentiles and the printed table of the events benchmark. */

/** The q-quantile (0..1) by linear interpolation between closest ranks (numpy's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const a = sorted[low] as number;
  const b = sorted[high] as number;
  return a + (b - a) * (position - low);
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** One measured row: a case (`1 subscriber`, …) and a path (`webhook`, `each subscriber`, …), per run. */
export interface Row {
  case: string;
  path: string;
  runs: Summary[];
  /** Events that did not reach every receiver before the timeout, summed over runs. */
  missing: number;
}

const median = (values: readonly number[]): number =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const ms = (value: number): string => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));

function cell(values: readonly number[]): string {
  const mid = ms(median(values));
  if (values.length < 2) return mid;
  return `${mid} (${ms(Math.min(...values))}–${ms(Math.max(...values))})`;
}

/** Milliseconds: medians over runs, with the runs' min–max in brackets when there are several. */
export function formatTable(rows: readonly Row[]): string {
  const head = ['case', 'path', 'samples/run', 'p50 ms', 'p99 ms', 'max ms', 'missing'];
  const body = rows.map((row) => [
    row.case,
    row.path,
    String(median(row.runs.map((run) => run.n))),
    cell(row.runs.map((run) => run.p50)),
    cell(row.runs.map((run) => run.p99)),
    cell(row.runs.map((run) => run.max)),
    String(row.missing),
  ]);
  const widths = head.map((title, column) => Math.max(title.length, ...body.map((line) => (line[column] ?? '').length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(head), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
