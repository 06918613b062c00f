import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../domain/api-key.js';
import { FeedmillError } from '../../domain/errors.js';
import { sharedWithLocalFallback } from './rate-limit-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Counts one operation that arrived without an HTTP request of its own (a WebSocket message)
     * against the key's budget, in the same counters as its requests; resolves with the
     * `rate_limited` error once the budget is spent.
     */
    chargeRateLimit(principal: Principal): Promise<FeedmillError | undefined>;
  }
}

export interface RateLimitOptions {
  /** Requests one key may make per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
  /** Shared counters for several API replicas; in memory when absent. */
  redis?: RateLimitPluginOptions['redis'];
  /** Told when the counters move into this process because Redis can't be reached, and back. */
  onCounterSwitch?: (local: boolean, error?: Error) => void;
}

const tooMany = (max: number, windowMs: number, after: string): FeedmillError =>
  new FeedmillError(
    'rate_limited',
    `Too many requests: this key may make ${max} per ${Math.round(windowMs / 1000)} s; retry in ${after}, backing off exponentially if it happens again`,
  );

const keyOf = (request: Pick<FastifyRequest, 'principal' | 'ip'>): string =>
  request.principal ? `key:${request.principal.keyId}` : `ip:${request.ip}`;

/**
 * Per-key limits (spec "Limits": too many requests yield 429). Runs after authentication, so the
 * budget belongs to the key, not to an address a proxy may share; unauthenticated calls (hosted
 * feeds) count by client address. The IETF draft headers `RateLimit-Limit/Remaining/Reset` go
 * with every response, `Retry-After` with a 429.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.max,
    timeWindow: options.windowMs,
    hook: 'onRequest',
    enableDraftSpec: true,
    // With a shared Redis, an outage must neither refuse requests nor lift the limit: each process
    // counts on its own until Redis answers again.
    ...(options.redis ? { store: sharedWithLocalFallback(options.redis, options.onCounterSwitch ?? (() => undefined)) } : {}),
    keyGenerator: keyOf,
    errorResponseBuilder: (_request, context) => tooMany(context.max, options.windowMs, context.after),
  });
  const limiter = app.createRateLimit();
  app.decorate('chargeRateLimit', async (principal: Principal) => {
    // The plugin's limiter takes a request, of which it reads what `keyOf` reads and the route
    // config (for a rate-limit group); this is that much of one, so the count lands on the key's.
    const request = { principal, ip: '', routeOptions: { config: {} } } as unknown as FastifyRequest;
    const result = await limiter(request);
    return !result.isAllowed && result.isExceeded ? tooMany(result.max, options.windowMs, `${result.ttlInSeconds} s`) : undefined;
  });
}
