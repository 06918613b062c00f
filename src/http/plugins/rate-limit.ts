import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { FeedmillError } from '../../domain/errors.js';
import { sharedWithLocalFallback } from './rate-limit-store.js';

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
    keyGenerator: (request) => (request.principal ? `key:${request.principal.keyId}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) =>
      new FeedmillError(
        'rate_limited',
        `Too many requests: this key may make ${context.max} per ${Math.round(options.windowMs / 1000)} s; retry in ${context.after}, backing off exponentially if it happens again`,
      ),
  });
}
