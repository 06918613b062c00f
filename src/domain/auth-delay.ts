/**
 * How long a key id or a client address waits after failed authentications: a few tries free,
 * then a wait that doubles with each further failure, up to a ceiling. Failures are forgotten
 * once the longest wait has passed after the last wait ended.
 */
export interface AuthDelayPolicy {
  /**
   * Failures a subject may make before its next attempt has to wait.
   * @default 5
   */
  freeFailures: number;
  /**
   * The first wait, doubled by each further failure.
   * @default 1000
   */
  baseDelayMs: number;
  /**
   * The longest wait.
   * @default 900000 (15 min)
   */
  maxDelayMs: number;
}

export const defaultAuthDelayPolicy: AuthDelayPolicy = { freeFailures: 5, baseDelayMs: 1_000, maxDelayMs: 900_000 };

/** The wait after the failures-th failure, in ms: `freeFailures` failures make the next attempt wait `baseDelayMs`. */
export function authDelayMs(failures: number, policy: AuthDelayPolicy): number {
  const over = failures - policy.freeFailures;
  return over < 0 ? 0 : Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** over);
}

/** How long a subject's failures are remembered after its latest failure, in ms. */
export const authMemoryMs = (delayMs: number, policy: AuthDelayPolicy): number => delayMs + policy.maxDelayMs;
