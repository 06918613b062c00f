import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];

/**
 * The rate limit's counters: in Redis, shared by every API replica; while Redis can't be reached,
 * in this process — the same limit per process — so an outage never lifts the limit and never
 * fails a request. `onSwitch` is told once per change of place, not once per request.
 */
export function sharedWithLocalFallback(
  redis: NonNullable<RateLimitPluginOptions['redis']>,
  onSwitch: (local: boolean, error?: Error) => void,
): FastifyRateLimitStoreCtor {
  let local = false;
  const switchTo = (toLocal: boolean, error?: Error): void => {
    if (local === toLocal) return;
    local = toLocal;
    onSwitch(toLocal, error);
  };
  class FallbackStore implements FastifyRateLimitStore {
    private readonly shared: FastifyRateLimitStore;
    private readonly inProcess: FastifyRateLimitStore;

    // The plugin passes its options first; ours use neither `continueExceeding` nor backoff.
    constructor(_options?: unknown, shared?: FastifyRateLimitStore, inProcess?: FastifyRateLimitStore) {
      this.shared = shared ?? new RedisStore(false, false, redis);
      this.inProcess = inProcess ?? new LocalStore(false, false);
    }

    incr(key: string, callback: Counted, timeWindow: number, max: number): void {
      this.shared.incr(
        key,
        (error, result) => {
          if (error === null) {
            switchTo(false);
            callback(null, result);
            return;
          }
          switchTo(true, error);
          this.inProcess.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): FastifyRateLimitStore {
      return new FallbackStore(undefined, this.shared.child(routeOptions), this.inProcess.child(routeOptions));
    }
  }
  return FallbackStore;
}
