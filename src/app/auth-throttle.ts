/**
 * Growing delays after failed authentications, per subject (a key id, a client address), so that
 * guessing secrets costs the guesser time and never costs us a slow hash per guess: a subject that
 * must wait is answered 429 before any hashing. In memory, per process.
 */
export interface AuthThrottleOptions {
  /**
   * Failures a subject may make before its next attempt has to wait.
   * @default 5
   */
  freeFailures?: number;
  /**
   * The first wait, doubled by each further failure.
   * @default 1000
   */
  baseDelayMs?: number;
  /**
   * The longest wait.
   * @default 900000 (15 min)
   */
  maxDelayMs?: number;
  /**
   * Subjects remembered at most; past it the oldest are forgotten (a flood of made-up key ids
   * must not fill the memory). The per-address subject still holds such a flood back.
   * @default 100000
   */
  maxSubjects?: number;
}

export interface AuthThrottle {
  /** Whole seconds the most delayed of these subjects must still wait; 0 when all may try now. */
  waitSeconds(subjects: readonly string[], now: number): number;
  /** Counts a failure against each subject. */
  failed(subjects: readonly string[], now: number): void;
  /** A subject that proved itself starts afresh. */
  succeeded(subject: string): void;
}

interface Failures {
  failures: number;
  /** When the subject may try again (ms since the epoch). */
  until: number;
  /** When the failures are forgotten: the wait's end plus the longest wait. */
  forgetAt: number;
}

export function createAuthThrottle(options: AuthThrottleOptions = {}): AuthThrottle {
  const freeFailures = options.freeFailures ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 1_000;
  const maxDelayMs = options.maxDelayMs ?? 900_000;
  const maxSubjects = options.maxSubjects ?? 100_000;
  // A Map iterates in insertion order; a failure re-inserts its subject, so the first is the stalest.
  const records = new Map<string, Failures>();
  const current = (subject: string, now: number): Failures | undefined => {
    const record = records.get(subject);
    if (record && record.forgetAt <= now) records.delete(subject);
    return record && record.forgetAt > now ? record : undefined;
  };
  return {
    waitSeconds(subjects, now) {
      const until = Math.max(0, ...subjects.map((subject) => current(subject, now)?.until ?? 0));
      return until > now ? Math.ceil((until - now) / 1000) : 0;
    },
    failed(subjects, now) {
      for (const subject of subjects) {
        const failures = (current(subject, now)?.failures ?? 0) + 1;
        // The freeFailures-th failure already makes the next attempt wait: "N tries, then delays".
        const over = failures - freeFailures;
        const delay = over >= 0 ? Math.min(maxDelayMs, baseDelayMs * 2 ** over) : 0;
        records.delete(subject);
        records.set(subject, { failures, until: now + delay, forgetAt: now + delay + maxDelayMs });
      }
      for (const stalest of records.keys()) {
        if (records.size <= maxSubjects) break;
        records.delete(stalest);
      }
    },
    succeeded(subject) {
      records.delete(subject);
    },
  };
}
