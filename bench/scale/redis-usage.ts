import { Redis } from 'ioredis';

export interface RedisUsage {
  /** Keys in the deployment's own database. */
  keys: number;
  /** Sum of `MEMORY USAGE` over those keys: what this deployment alone holds. */
  bytes: number;
  /** `INFO memory` used_memory of the whole server (other databases and users included). */
  usedMemory: number;
}

/** What one Redis database holds, key by key (SCAN, pipelined `MEMORY USAGE … SAMPLES 0`). */
export async function redisUsage(url: string): Promise<RedisUsage> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  try {
    let keys = 0;
    let bytes = 0;
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      if (batch.length === 0) continue;
      const pipeline = redis.pipeline();
      // SAMPLES 0: every element of a hash or sorted set, not an estimate from five of them.
      for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      for (const [error, value] of (await pipeline.exec()) ?? []) {
        if (error) throw error;
        bytes += Number(value ?? 0);
      }
      keys += batch.length;
    } while (cursor !== '0');
    const info = await redis.info('memory');
    const usedMemory = Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
    return { keys, bytes, usedMemory };
  } finally {
    redis.disconnect();
  }
}
