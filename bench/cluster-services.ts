/**
 * Where the cluster benches find Cassandra and Redis: FEEDMILL_BENCH_CASSANDRA (`127.0.0.1:9042`)
 * and FEEDMILL_BENCH_REDIS_URL (`redis://127.0.0.1:6379`), the ports `scripts/services/*.sh start`
 * serve on. Every bench takes a keyspace and a Redis database of its own and drops them after, so
 * it may share the servers the tests use (not while they run: CI stops its servers when it ends).
 */
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
