import { Redis } from 'ioredis';

export interface RedisUsage {
  /** Keys in the deployment's own database. */
  keys: number;
  /** Sum of `MEMORY USAGE` over those keys: what this deployment alone holds. */
  bytes: number;
  /** `INFO memory` used_memory of the whole server (other databases and users included). */
  usedMemory: number;
  /** Bytes by key shape: the key with its ids (the part after the queue name) cut off, e.g. `feedmill:refresh:*`. */
  byShape: Map<string, { keys: number; bytes: number }>;
}

/** `feedmill:refresh:AbC…` → `feedmill:refresh:*`; a queue's fixed keys (`…:delayed`, `…:meta`) stay whole. */
const shapeOf = (key: string): string => {
  const parts = key.split(':');
  const last = parts.at(-1) ?? '';
  return /^[A-Za-z0-9_-]{12,}$/.test(last) || /^\d+$/.test(last) ? [...parts.slice(0, -1), '*'].join(':') : key;
};

/** What one Redis database holds, key by key (SCAN, pipelined `MEMORY USAGE … SAMPLES 0`). */
export async function redisUsage(url: string): Promise<RedisUsage> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  try {
    let keys = 0;
    let bytes = 0;
    const byShape = new Map<string, { keys: number; bytes: number }>();
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      if (batch.length === 0) continue;
      const pipeline = redis.pipeline();
      // SAMPLES 0: every element of a hash or sorted set, not an estimate from five of them.
      for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      const answers = (await pipeline.exec()) ?? [];
      answers.forEach(([error, value], n) => {
        if (error) throw error;
        const size = Number(value ?? 0);
        bytes += size;
        const shape = shapeOf(batch[n] ?? '');
        const entry = byShape.get(shape) ?? { keys: 0, bytes: 0 };
        entry.keys += 1;
        entry.bytes += size;
        byShape.set(shape, entry);
      });
      keys += batch.length;
    } while (cursor !== '0');
    const info = await redis.info('memory');
    const usedMemory = Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
    return { keys, bytes, usedMemory, byShape };
  } finally {
    redis.disconnect();
  }
}

/** The key shapes that grew most from `before` to `after`, one line each: keys and bytes added. */
export function shapeGrowth(before: RedisUsage | undefined, after: RedisUsage, top = 6): string[] {
  return [...after.byShape]
    .map(([shape, { keys, bytes }]) => {
      const old = before?.byShape.get(shape) ?? { keys: 0, bytes: 0 };
      return { shape, keys: keys - old.keys, bytes: bytes - old.bytes };
    })
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top)
    .map(
      ({ shape, keys, bytes }) => `${shape}: ${keys >= 0 ? '+' : ''}${keys} keys, ${bytes >= 0 ? '+' : ''}${(bytes / 1e3).toFixed(1)} kB`,
    );
}

/** Calls of each command the Redis server has answered since it started (`INFO commandstats`), by lower-case name. */
export async function redisCommandCalls(url: string): Promise<Map<string, number>> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  try {
    const info = await redis.info('commandstats');
    return new Map([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((match) => [match[1] ?? '', Number(match[2])]));
  } finally {
    redis.disconnect();
  }
}
