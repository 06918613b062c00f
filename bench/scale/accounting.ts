/**
 * What the fixture's arrival log says about the schedule. With FEEDMILL_POLL_MIN_INTERVAL =
 * FEEDMILL_POLL_MAX_INTERVAL = I the poll policy plans every next run exactly I after the start of
 * the run before (no jitter, no back-off: src/domain/poll-policy.ts clamps both to I), and a run's
 * start is when its request reaches the fixture, give or take one store read. So a feed's due times
 * are its seeded time, then each arrival + I, and an arrival's lag is how late it came after that.
 */
export interface ScheduleFigures {
  refreshes: number;
  lagP50Ms: number;
  lagP99Ms: number;
  lagMaxMs: number;
  /** Of the feeds refreshed in the window, the p99 of each one's worst lag: lag spread evenly, or some feeds starved. */
  feedWorstLagP99Ms: number;
  /** Requests from the window on that came less than I/2 after the feed's previous one: a due time served twice. */
  duplicates: number;
  /** The duplicates by the fixture's kind of feed, with the median gap (ms) between the two requests. */
  duplicatesByKind: Record<string, { count: number; medianGapMs: number }>;
  /** Feeds with a due time before the window's end and no request for it by `settledAt`. */
  missed: number;
}

export interface Window {
  from: number;
  to: number;
  /** When the drain after the window ended: later requests are not looked at. */
  settledAt: number;
}

function quantileOfSorted(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q))] as number;
}

export function scheduleFigures(
  arrivals: readonly (number[] | undefined)[],
  seededDue: (n: number) => number,
  intervalMs: number,
  window: Window,
  kindOf: (n: number) => string,
): ScheduleFigures {
  const gaps = new Map<string, number[]>();
  const lags: number[] = [];
  const worst: number[] = [];
  let duplicates = 0;
  let missed = 0;
  for (let n = 0; n < arrivals.length; n++) {
    const times = arrivals[n] ?? [];
    let due = seededDue(n);
    let previous: number | undefined;
    let worstHere = Number.NaN;
    for (const at of times) {
      if (at > window.settledAt) break;
      if (previous !== undefined && at >= window.from && at - previous < intervalMs / 2) {
        duplicates += 1;
        const kind = kindOf(n);
        gaps.set(kind, [...(gaps.get(kind) ?? []), at - previous]);
      }
      if (at >= window.from && at < window.to) {
        const lag = at - due;
        lags.push(lag);
        worstHere = Number.isNaN(worstHere) ? lag : Math.max(worstHere, lag);
      }
      previous = at;
      due = at + intervalMs;
    }
    if (!Number.isNaN(worstHere)) worst.push(worstHere);
    if (due < window.to) missed += 1;
  }
  const duplicatesByKind: ScheduleFigures['duplicatesByKind'] = {};
  for (const [kind, list] of gaps)
    duplicatesByKind[kind] = { count: list.length, medianGapMs: quantileOfSorted(Float64Array.from(list).sort(), 0.5) };
  const sorted = Float64Array.from(lags).sort();
  const worstSorted = Float64Array.from(worst).sort();
  return {
    refreshes: lags.length,
    lagP50Ms: quantileOfSorted(sorted, 0.5),
    lagP99Ms: quantileOfSorted(sorted, 0.99),
    lagMaxMs: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] as number),
    feedWorstLagP99Ms: quantileOfSorted(worstSorted, 0.99),
    duplicates,
    duplicatesByKind,
    missed,
  };
}
