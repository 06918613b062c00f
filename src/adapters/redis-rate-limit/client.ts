import { Redis } from 'ioredis';

/**
 * The Redis connection @fastify/rate-limit counts on, so every API replica shares one budget per
 * key. Short timeouts and no offline queue: a request must not wait on a Redis that is away (the
 * plugin then lets requests through rather than failing them; see `skipOnError` in src/http).
 */
export function createRateLimitRedis(url: string, onError: (error: Error) => void): Redis {
  const client = new Redis(url, { connectTimeout: 1_000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  client.on('error', onError);
  return client;
}
