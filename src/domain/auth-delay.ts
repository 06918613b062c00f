/**
 * How long a key id or a client address waits after failed authentications: a few tries free,
 * then a wait that doubles with each further failure, up to a ceiling. Failures are forgotten
 * once the longest wait has passed after the last wait ended.
 *
 * A subject counted by its sources instead (a person's email, by the client addresses that failed
 * to sign in as them) follows the same curve, its count being the number of distinct sources.
 */
export interface AuthDelayPolicy {
  /**
   * Failures a subject may make before its next attempt has to wait.
   * @default 5
   */
  freeFailures: number;
  /**
   * Distinct sources that may fail against a subject counted by source before its next attempt
   * has to wait: high, so that only an attack spread over many addresses gets there.
   * @default 50
   */
  freeSources: number;
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

export const defaultAuthDelayPolicy: AuthDelayPolicy = { freeFailures: 5, freeSources: 50, baseDelayMs: 1_000, maxDelayMs: 900_000 };

/** The wait after the sources-th distinct source failed against a subject, in ms. */
export const sourceDelayMs = (sources: number, policy: AuthDelayPolicy): number =>
  authDelayMs(sources, { ...policy, freeFailures: policy.freeSources });

/**
 * Sources remembered per subject at most: past the free ones, each further one doubles the wait,
 * and beyond this many more the wait is at its longest whatever the count.
 */
export const maxSourcesKept = (policy: AuthDelayPolicy): number =>
  policy.freeSources + Math.ceil(Math.log2(Math.max(2, policy.maxDelayMs / policy.baseDelayMs))) + 1;

/** The wait after the failures-th failure, in ms: `freeFailures` failures make the next attempt wait `baseDelayMs`. */
export function authDelayMs(failures: number, policy: AuthDelayPolicy): number {
  const over = failures - policy.freeFailures;
  return over < 0 ? 0 : Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** over);
}

/** How long a subject's failures are remembered after its latest failure, in ms. */
export const authMemoryMs = (delayMs: number, policy: AuthDelayPolicy): number => delayMs + policy.maxDelayMs;
