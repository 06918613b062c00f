/**
 * Where the cluster benches find Cassandra and Redis: FEEDMILL_BENCH_CASSANDRA (`127.0.0.1:9042`)
 * and FEEDMILL_BENCH_REDIS_URL (`redis://127.0.0.1:6379`), the ports `scripts/services/*.sh start`
 * serve on. Every bench takes a keyspace and a Redis database of its own and drops them after, so
 * it may share the servers the tests use (not while they run: CI stops its servers when it ends).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './corpus-dir.js';

export interface ClusterServices {
  cassandra: string;
  redisUrl: string;
}

export const clusterServices = (env: {
  FEEDMILL_BENCH_CASSANDRA?: string | undefined;
  FEEDMILL_BENCH_REDIS_URL?: string | undefined;
}): ClusterServices => ({
  cassandra: env.FEEDMILL_BENCH_CASSANDRA ?? '127.0.0.1:9042',
  redisUrl: env.FEEDMILL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
});

/**
 * The process ids of the servers `scripts/services/*.sh start` started for `services`, read from
 * the pid files those scripts keep in `.cache/services/`; absent for servers started otherwise.
 * The cluster benches read their CPU time: on two shared cores, what Cassandra takes is what the
 * feedmill processes do not get, and per refresh it is a cost to size the cluster by.
 */
export function servicePids(services: ClusterServices): { cassandra?: number; redis?: number } {
  const root = join(repositoryRoot(), '.cache/services');
  const pidIn = (file: string): number | undefined => {
    try {
      const pid = Number(readFileSync(join(root, file), 'utf8').trim());
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    } catch {
      return undefined;
    }
  };
  const redisPort = new URL(services.redisUrl).port || '6379';
  const cassandra = pidIn('cassandra/cassandra.pid');
  const redis = pidIn(`redis/${redisPort}/redis.pid`);
  return { ...(cassandra === undefined ? {} : { cassandra }), ...(redis === undefined ? {} : { redis }) };
}
