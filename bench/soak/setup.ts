import { Pool } from 'undici';
import type { Cluster } from '../scale/cluster.js';

async function post(cluster: Cluster, pool: Pool, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await pool.request({
    method: 'POST',
    path,
    headers: { authorization: cluster.authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode > 299)
    throw new Error(`Expected 2xx from POST ${path}, got ${response.statusCode}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Creates a feed per address through POST /v1/feeds (each a first fetch), four at a time; their ids in order. */
export async function createFeeds(cluster: Cluster, urls: readonly string[]): Promise<string[]> {
  const pool = new Pool(cluster.origin, { connections: 4, connect: { ca: cluster.ca, servername: 'localhost' } });
  try {
    const ids: string[] = new Array<string>(urls.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let n = next++; n < urls.length; n = next++) ids[n] = String((await post(cluster, pool, '/v1/feeds', { url: urls[n] })).id);
      }),
    );
    return ids;
  } finally {
    await pool.close();
  }
}

/** A webhook for every feed of the account; its signing secret. */
export async function createWebhook(cluster: Cluster, url: string): Promise<string> {
  const pool = new Pool(cluster.origin, { connect: { ca: cluster.ca, servername: 'localhost' } });
  try {
    return String((await post(cluster, pool, '/v1/webhooks', { url })).secret);
  } finally {
    await pool.close();
  }
}
