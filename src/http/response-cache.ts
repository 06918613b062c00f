import type { FastifyReply } from 'fastify';
import { createLru } from '../caches/lru.js';

/**
 * Serialized responses kept per key and version, so a client polling a resource that has not
 * changed costs the version check alone: no item reads, no serialization. The least recently used
 * entries go first once the cache holds more than `maxBytes` or `maxEntries`.
 */
export interface ResponseCache {
  /** The bytes cached for `key` at `version`, or `make()`'s, which are then cached. */
  get(key: string, version: string, make: () => Promise<Buffer>): Promise<Buffer>;
  readonly bytes: number;
}

/** @param maxBytes @default 32 MiB @param maxEntries @default 10_000 */
export function createResponseCache(maxBytes = 32 * 1024 * 1024, maxEntries = 10_000): ResponseCache {
  const entries = createLru<{ version: string; body: Buffer }>({ maxEntries, maxBytes, sizeOf: (entry) => entry.body.length });
  return {
    get bytes() {
      return entries.bytes;
    },
    async get(key, version, make) {
      const cached = entries.get(key);
      if (cached?.version === version) return cached.body;
      const body = await make();
      entries.set(key, { version, body });
      return body;
    },
  };
}

/**
 * Answers a GET from `cache`: the body for `key` at `version`, or `make()`'s object serialized by
 * the route's 200 schema (`reply.serialize`, as returning the object would) and cached.
 */
export async function sendCached(
  reply: FastifyReply,
  cache: ResponseCache,
  key: string,
  version: string,
  make: () => Promise<unknown>,
): Promise<FastifyReply> {
  const body = await cache.get(key, version, async () => bytesOf(reply.serialize(await make())));
  // Fastify sends a Buffer as is.
  return reply.type('application/json; charset=utf-8').send(body);
}

const bytesOf = (serialized: string | ArrayBuffer | Buffer): Buffer =>
  typeof serialized === 'string' ? Buffer.from(serialized) : Buffer.isBuffer(serialized) ? serialized : Buffer.from(serialized);
