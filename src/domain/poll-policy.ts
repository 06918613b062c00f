/** Bounds of the adaptive interval, in seconds (FEEDMILL_POLL_MIN_INTERVAL / _MAX_INTERVAL). */
export interface PollPolicy {
  minSeconds: number;
  maxSeconds: number;
}

/**
 * How long a source's `Retry-After` is honoured at most, even above the ceiling: a source that asks
 * for 40 s under a 2 s ceiling is asked again after 40 s, but one that asks for a year is asked
 * again after a day (docs/api.md "Pausing, refreshing and polling").
 */
export const retryAfterCapSeconds = 86_400;

/**
 * A feed's own bounds: its `min_interval` raises the floor (never lowers it: the settings refuse
 * a value below the global floor), and the ceiling with it when the floor passes the ceiling.
 */
export function feedPollPolicy(policy: PollPolicy, minIntervalSeconds: number | null | undefined): PollPolicy {
  const minSeconds = Math.max(policy.minSeconds, minIntervalSeconds ?? 0);
  return { minSeconds, maxSeconds: Math.max(policy.maxSeconds, minSeconds) };
}

/** What the last refresh taught us about the source. */
export interface PollSignals {
  outcome: 'changed' | 'unchanged' | 'error';
  /** Successive refreshes without news, this one included. */
  unchangedStreak: number;
  /** Successive failures, this one included. */
  errorCount: number;
  /** RSS `<ttl>` in minutes, when given. */
  ttlMinutes?: number;
  /** `Cache-Control: max-age` in seconds, when given. */
  maxAgeSeconds?: number;
  /** `Retry-After` in seconds, when given. */
  retryAfterSeconds?: number;
  /** A number in [0, 1): spreads feeds of one host so they never poll in lock-step. */
  jitter: number;
}

const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/**
 * When to refresh a feed next. Starts at the floor after news, doubles with each quiet refresh up
 * to the ceiling, backs off exponentially on errors up to the ceiling, and never polls sooner than
 * the source asked (`ttl`, `max-age` up to the ceiling; `Retry-After` up to `retryAfterCapSeconds`,
 * even past the ceiling: RFC 9110 §10.2.3 asks the client to wait that long). ±10% jitter.
 */
export function nextPollAt(now: Date, policy: PollPolicy, signals: PollSignals): Date {
  const { minSeconds } = policy;
  // Only Retry-After may lift the ceiling, and only as far as the source asked (within the cap).
  const maxSeconds = Math.max(policy.maxSeconds, Math.min(signals.retryAfterSeconds ?? 0, retryAfterCapSeconds));
  let seconds: number;
  if (signals.outcome === 'error') {
    seconds = minSeconds * 2 ** Math.min(signals.errorCount, 16);
  } else if (signals.outcome === 'changed') {
    seconds = minSeconds;
  } else {
    seconds = minSeconds * 2 ** Math.min(signals.unchangedStreak, 16);
  }
  const asked = Math.max((signals.ttlMinutes ?? 0) * 60, signals.maxAgeSeconds ?? 0, signals.retryAfterSeconds ?? 0);
  seconds = clamp(Math.max(seconds, asked), minSeconds, maxSeconds);
  const jittered = seconds * (0.9 + 0.2 * signals.jitter);
  // The jitter may not undercut what the source asked for (RFC 9110 §10.2.3 for Retry-After).
  const floor = clamp(asked, minSeconds, maxSeconds);
  return new Date(now.getTime() + Math.round(clamp(jittered, floor, maxSeconds) * 1000));
}
