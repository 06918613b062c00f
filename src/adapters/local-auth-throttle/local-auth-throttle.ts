import {
  authDelayMs,
  authMemoryMs,
  defaultAuthDelayPolicy,
  maxSourcesKept,
  sourceDelayMs,
  type AuthDelayPolicy,
} from '../../domain/auth-delay.js';
import type { AuthThrottle } from '../../ports/auth-throttle.js';

export interface LocalAuthThrottleOptions extends Partial<AuthDelayPolicy> {
  /**
   * Subjects remembered at most; past it the stalest are forgotten (a flood of made-up key ids
   * must not fill the memory; the per-address subject still holds such a flood back).
   * @default 100000
   */
  maxSubjects?: number;
}

interface Failures {
  failures: number;
  /** When the subject may try again. */
  until: number;
  /** When its failures are forgotten. */
  forgetAt: number;
  /** A subject counted by source: the distinct sources that failed (`failures` is their number). */
  sources?: Set<string>;
}

/** The throttle of embedded mode: in memory, per process. */
export function createLocalAuthThrottle(options: LocalAuthThrottleOptions = {}): AuthThrottle {
  const { maxSubjects = 100_000, ...rest } = options;
  const policy: AuthDelayPolicy = { ...defaultAuthDelayPolicy, ...rest };
  // A Map iterates in insertion order; a failure re-inserts its subject, so the first is the stalest.
  const records = new Map<string, Failures>();
  const current = (subject: string, now: number): Failures | undefined => {
    const record = records.get(subject);
    if (record && record.forgetAt <= now) records.delete(subject);
    return record && record.forgetAt > now ? record : undefined;
  };
  const sourcesKept = maxSourcesKept(policy);
  const keep = (subject: string, record: Failures): void => {
    records.delete(subject);
    records.set(subject, record);
    for (const stalest of records.keys()) {
      if (records.size <= maxSubjects) break;
      records.delete(stalest);
    }
  };
  return {
    async waitSeconds(subjects, now) {
      const until = Math.max(0, ...subjects.map((subject) => current(subject, now)?.until ?? 0));
      return until > now ? Math.ceil((until - now) / 1000) : 0;
    },
    async failed(subjects, now) {
      for (const subject of subjects) {
        const failures = (current(subject, now)?.failures ?? 0) + 1;
        const delay = authDelayMs(failures, policy);
        keep(subject, { failures, until: now + delay, forgetAt: now + authMemoryMs(delay, policy) });
      }
    },
    async failedFrom(subject, source, now) {
      const sources = current(subject, now)?.sources ?? new Set<string>();
      if (sources.has(source)) return;
      if (sources.size < sourcesKept) sources.add(source);
      const delay = sourceDelayMs(sources.size, policy);
      keep(subject, { failures: sources.size, until: now + delay, forgetAt: now + authMemoryMs(delay, policy), sources });
    },
    async succeeded(subject) {
      records.delete(subject);
    },
  };
}
