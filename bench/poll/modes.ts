import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'cassandra-driver';
import { Redis } from 'ioredis';

export type ModeName = 'embedded' | 'cluster';

/** The FEEDMILL_* variables of one fresh deployment, and how to remove what it left behind. */
export interface Deployment {
  mode: ModeName;
  env: Record<string, string>;
  dataDir: string;
  dispose(): Promise<void>;
}

export interface ClusterSettings {
  /** Cassandra `host:port`. */
  cassandra: string;
  /** Redis base URL without a database number. */
  redisUrl: string;
}

let nextDb = 1;

/**
 * A fresh deployment: a temporary data directory (SQLite, TLS pair, secret key), and in cluster mode
 * a keyspace `bench_<bench>_<random>` and a Redis database number of its own, both removed by `dispose`.
 */
export function deployment(mode: ModeName, cluster: ClusterSettings, bench = 'poll'): Deployment {
  const dataDir = mkdtempSync(join(tmpdir(), `feedmill-bench-${bench}-`));
  const env: Record<string, string> = {
    FEEDMILL_DATA_DIR: dataDir,
    FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'true',
    FEEDMILL_LOG_LEVEL: 'warn',
    FEEDMILL_METRICS_PORT: '0',
    FEEDMILL_HOST: '127.0.0.1',
  };
  if (mode === 'embedded') {
    return { mode, env, dataDir, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const keyspace = `bench_${bench}_${randomBytes(4).toString('hex')}`;
  const db = nextDb++ % 16;
  const redisUrl = `${cluster.redisUrl.replace(/\/\d*$/, '')}/${db}`;
  Object.assign(env, {
    FEEDMILL_STORE: 'cassandra',
    FEEDMILL_CASSANDRA_CONTACT_POINTS: cluster.cassandra,
    FEEDMILL_CASSANDRA_KEYSPACE: keyspace,
    FEEDMILL_REDIS_URL: redisUrl,
  });
  return {
    mode,
    env,
    dataDir,
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
      // Dropping a keyspace waits for schema agreement, which takes longer than the driver's 12 s
      // default on a busy one-box Cassandra.
      const client = new Client({
        contactPoints: [cluster.cassandra],
        localDataCenter: 'datacenter1',
        socketOptions: { readTimeout: 120_000 },
      });
      try {
        await client.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`);
      } finally {
        await client.shutdown();
      }
      const redis = new Redis(redisUrl, { lazyConnect: true });
      await redis.connect();
      await redis.flushdb();
      redis.disconnect();
    },
  };
}
