/**
 * A cluster deployment started as an operator starts one: `feedmill keys create`, `feedmill api`,
 * then any number of `feedmill worker` processes on the same Redis database and Cassandra keyspace.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort, runCommand, startRole, stopChild } from '../feedmill-binary.js';
import { benchRateLimit } from '../load/deploy.js';
import { deployment, type ClusterSettings, type Deployment } from '../poll/modes.js';

export interface Cluster {
  target: Deployment;
  env: Record<string, string | undefined>;
  origin: string;
  /** The Redis database of this deployment (`redis://…/N`), for the benches that read its figures or its bus. */
  redisUrl: string;
  ca: string;
  authorization: string;
  apis: ChildProcess[];
  workers: ChildProcess[];
  /** `http://127.0.0.1:PORT/metrics` of each process, by pid. */
  metricsUrls: Map<number, string>;
  /** Starts one more `feedmill api` on a port of its own; its origin. */
  addApi(): Promise<string>;
  addWorker(): Promise<ChildProcess>;
  /** Stops every process, newest first, then drops the keyspace and empties the Redis database. */
  close(): Promise<void>;
}

export async function startCluster(settings: ClusterSettings, bench: string, extraEnv: Record<string, string>): Promise<Cluster> {
  const target = deployment('cluster', settings, bench);
  const redisUrl = target.env.FEEDMILL_REDIS_URL;
  if (redisUrl === undefined) throw new Error('a cluster deployment names its Redis database (bench/poll/modes.ts)');
  const port = await freePort();
  const env = { ...process.env, ...target.env, FEEDMILL_PORT: String(port), FEEDMILL_RATE_LIMIT: benchRateLimit, ...extraEnv };
  const apis: ChildProcess[] = [];
  const workers: ChildProcess[] = [];
  const metricsUrls = new Map<number, string>();
  const started = async (role: 'api' | 'worker', roleEnv: Record<string, string | undefined>) => {
    const metricsPort = await freePort();
    // FEEDMILL_BENCH_PROFILE_DIR: a V8 CPU profile of each process, written when it stops.
    const running = await startRole(
      role,
      { ...roleEnv, FEEDMILL_METRICS_PORT: String(metricsPort) },
      target.dataDir,
      process.env.FEEDMILL_BENCH_PROFILE_DIR,
    );
    metricsUrls.set(running.child.pid ?? -1, `http://127.0.0.1:${metricsPort}/metrics`);
    return running;
  };
  const close = async (): Promise<void> => {
    for (const child of [...workers].reverse()) await stopChild(child);
    for (const child of [...apis].reverse()) await stopChild(child);
    try {
      await target.dispose();
    } catch (error) {
      process.stderr.write(`${bench}: could not remove ${target.env.FEEDMILL_CASSANDRA_KEYSPACE}: ${(error as Error).message}\n`);
    }
  };
  try {
    const printed = await runCommand(['keys', 'create', '--account', `bench-${bench}`, '--scopes', 'read,write', '--json'], env);
    // README "Commands": the last line is the JSON of the new pair.
    const created = JSON.parse(printed.trim().split('\n').at(-1) ?? '') as { key: string; secret: string };
    const api = await started('api', env);
    apis.push(api.child);
    return {
      target,
      env,
      origin: `https://127.0.0.1:${port}`,
      redisUrl,
      ca: api.ca,
      authorization: `Bearer ${created.key}:${created.secret}`,
      apis,
      workers,
      metricsUrls,
      async addApi() {
        const apiPort = await freePort();
        const more = await started('api', { ...env, FEEDMILL_PORT: String(apiPort) });
        apis.push(more.child);
        return `https://127.0.0.1:${apiPort}`;
      },
      async addWorker() {
        // The worker shares the data directory, so it reads the secret key the API made.
        const worker = await started('worker', env);
        workers.push(worker.child);
        return worker.child;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
