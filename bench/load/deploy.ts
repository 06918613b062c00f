/**
 * One deployment of the load run, started as a user starts it: `feedmill keys create`, then
 * `feedmill all` (embedded), or `feedmill api` and `feedmill worker` on Redis and Cassandra (cluster).
 */
import type { ChildProcess } from 'node:child_process';
import type { Pool } from 'undici';
import { freePort, runCommand, startRole, stopChild } from '../feedmill-binary.js';
import { deployment, type ClusterSettings, type ModeName } from '../poll/modes.js';
import type { PollSource } from '../poll/source.js';
import type { LoadFeed } from './mix.js';

export interface RunningDeployment {
  origin: string;
  ca: string;
  authorization: string;
  /** Stops the processes in reverse order of start, then drops the store. */
  close(): Promise<void>;
}

/**
 * The per-key limit, raised for the run (FEEDMILL_RATE_LIMIT, requests per key per window): the
 * default 600 a minute would turn the run into 429s after its first second. Hosted documents
 * count by client address, and every request comes from 127.0.0.1, so the raise covers them too.
 */
export const benchRateLimit = '1000000';

export async function startDeployment(mode: ModeName, cluster: ClusterSettings): Promise<RunningDeployment> {
  const target = deployment(mode, cluster, 'load');
  const children: ChildProcess[] = [];
  const close = async (): Promise<void> => {
    for (const child of children.reverse()) await stopChild(child);
    try {
      await target.dispose();
    } catch (error) {
      // The measurements are taken by now; say what is left behind instead of losing them.
      process.stderr.write(
        `load: could not remove the ${mode} deployment's store (${target.env.FEEDMILL_CASSANDRA_KEYSPACE ?? target.dataDir}): ${(error as Error).message}\n`,
      );
      process.exitCode = 1;
    }
  };
  try {
    const port = await freePort();
    const env = { ...process.env, ...target.env, FEEDMILL_PORT: String(port), FEEDMILL_RATE_LIMIT: benchRateLimit };
    const printed = await runCommand(['keys', 'create', '--account', 'bench-load', '--scopes', 'read,write', '--json'], env);
    // docs/commands.md: the last line of `keys create --json` is the JSON of the new pair.
    const created = JSON.parse(printed.trim().split('\n').at(-1) ?? '') as { key: string; secret: string };
    const api = await startRole(mode === 'embedded' ? 'all' : 'api', env, target.dataDir);
    children.push(api.child);
    if (mode === 'cluster') {
      // The worker shares the data directory, so it reads the secret key the API made.
      const worker = await startRole('worker', { ...env, FEEDMILL_METRICS_PORT: String(await freePort()) }, target.dataDir);
      children.push(worker.child);
    }
    return { origin: `https://127.0.0.1:${port}`, ca: api.ca, authorization: `Bearer ${created.key}:${created.secret}`, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Creates `count` feeds from the fixture source through POST /v1/feeds (each a first fetch and
 * parse), four at a time, then reads each hosted document once for its ETag. Untimed.
 */
export async function prepareFeeds(pool: Pool, authorization: string, source: PollSource, count: number): Promise<LoadFeed[]> {
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ headers: Record<string, string | string[] | undefined>; text: string }> => {
    const headers: Record<string, string> = { authorization };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await pool.request({ method, path, headers, body: body === undefined ? null : JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode !== 200)
      throw new Error(`Expected 200 from ${method} ${path} while preparing the feeds, got ${response.statusCode}: ${text.slice(0, 300)}`);
    return { headers: response.headers, text };
  };
  const feeds: LoadFeed[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let n = next++; n < count; n = next++) {
        const feed = JSON.parse((await call('POST', '/v1/feeds', { url: source.feedUrl(n) })).text) as { id: string; rss_feed_url: string };
        const hostedPath = new URL(feed.rss_feed_url).pathname;
        const etag = (await call('GET', hostedPath)).headers.etag;
        feeds.push({ id: feed.id, hostedPath, etag: typeof etag === 'string' ? etag : undefined });
      }
    }),
  );
  return feeds;
}
