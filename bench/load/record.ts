/** What the load run records per request kind, and the table it prints. */
import { quantile } from '../events/stats.js';
import { formatRows } from '../poll/table.js';

/** An HTTP status, or the code of a transport failure (`ECONNRESET`, `UND_ERR_HEADERS_TIMEOUT`, …). */
export type Outcome = number | string;

/** The run's rule: a 2xx or a 304 is an answer; any other status and any transport failure is an error. */
export const isError = (outcome: Outcome): boolean =>
  typeof outcome !== 'number' || !((outcome >= 200 && outcome < 300) || outcome === 304);

export interface KindLog {
  /** Milliseconds from sending to the whole body read, every request (errors included). */
  latencies: number[];
  outcomes: Map<string, number>;
}

export class Recorder {
  readonly kinds = new Map<string, KindLog>();

  add(kind: string, outcome: Outcome, ms: number): void {
    let log = this.kinds.get(kind);
    if (!log) {
      log = { latencies: [], outcomes: new Map() };
      this.kinds.set(kind, log);
    }
    log.latencies.push(ms);
    const key = String(outcome);
    log.outcomes.set(key, (log.outcomes.get(key) ?? 0) + 1);
  }

  /** Every kind's requests pooled, for the overall row. */
  all(): KindLog {
    const pooled: KindLog = { latencies: [], outcomes: new Map() };
    for (const log of this.kinds.values()) {
      for (const ms of log.latencies) pooled.latencies.push(ms);
      for (const [outcome, n] of log.outcomes) pooled.outcomes.set(outcome, (pooled.outcomes.get(outcome) ?? 0) + n);
    }
    return pooled;
  }
}

export interface Summary {
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Errors by status or failure code, `{}` when there were none. */
  errors: Record<string, number>;
  /** Every outcome by status, errors included. */
  outcomes: Record<string, number>;
}

export function summarise(log: KindLog): Summary {
  // A typed array sorts numerically without a comparator call per pair: 100k+ samples per run.
  const sorted = Float64Array.from(log.latencies).sort();
  const errors: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  for (const [outcome, n] of [...log.outcomes].sort(([a], [b]) => a.localeCompare(b))) {
    outcomes[outcome] = n;
    if (isError(/^\d+$/.test(outcome) ? Number(outcome) : outcome)) errors[outcome] = n;
  }
  const at = (q: number): number => quantile(sorted, q);
  return {
    requests: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    errors,
    outcomes,
  };
}

export interface ModeResult {
  mode: string;
  seconds: number;
  rows: { kind: string; summary: Summary }[];
}

const ms = (value: number): string => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));
const counts = (record: Record<string, number>): string =>
  Object.keys(record).length === 0
    ? '0'
    : Object.entries(record)
        .map(([outcome, n]) => `${outcome} ${n}`)
        .join(', ');

export function formatResults(results: readonly ModeResult[]): string {
  const body = results.flatMap((result) =>
    result.rows.map(({ kind, summary }) => [
      result.mode,
      kind,
      String(summary.requests),
      (summary.requests / result.seconds).toFixed(1),
      ms(summary.p50),
      ms(summary.p90),
      ms(summary.p99),
      ms(summary.max),
      counts(summary.errors),
      counts(summary.outcomes),
    ]),
  );
  return formatRows(['mode', 'request', 'requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'statuses'], body);
}
