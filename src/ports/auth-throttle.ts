/**
 * Failed authentications per subject (`key:<id>`, `address:<ip>`), so that a subject with too many
 * recent failures is answered 429 before its secret is hashed. Times are ms since the epoch.
 */
export interface AuthThrottle {
  /** Whole seconds the most delayed of these subjects must still wait; 0 when all may try now. */
  waitSeconds(subjects: readonly string[], now: number): Promise<number>;
  /** Counts a failure against each subject. */
  failed(subjects: readonly string[], now: number): Promise<void>;
  /**
   * Counts `source` (a client address) among the distinct sources that failed against `subject`
   * (a person's email); a source already counted adds nothing, so one address, however many times
   * it fails, cannot make the subject wait. Past the policy's free sources it waits as any other.
   */
  failedFrom(subject: string, source: string, now: number): Promise<void>;
  /** A subject that proved itself starts afresh. */
  succeeded(subject: string): Promise<void>;
}
