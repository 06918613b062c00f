import type { AuthThrottle } from '../ports/auth-throttle.js';

/**
 * A shared throttle (Redis) that fails hands over to this process's own, so an outage never
 * turns back into a full hash per wrong secret. `onError` hears of the first failure of each
 * outage, not of every request during it.
 */
export function withFallback(shared: AuthThrottle, local: AuthThrottle, onError: (error: unknown) => void): AuthThrottle {
  let failing = false;
  const attempt = async <T>(run: (throttle: AuthThrottle) => Promise<T>): Promise<T> => {
    try {
      const result = await run(shared);
      failing = false;
      return result;
    } catch (error) {
      if (!failing) onError(error);
      failing = true;
      return run(local);
    }
  };
  return {
    waitSeconds: (subjects, now) => attempt((throttle) => throttle.waitSeconds(subjects, now)),
    failed: (subjects, now) => attempt((throttle) => throttle.failed(subjects, now)),
    failedFrom: (subject, source, now) => attempt((throttle) => throttle.failedFrom(subject, source, now)),
    succeeded: (subject) => attempt((throttle) => throttle.succeeded(subject)),
  };
}
