/**
 * The request mix of the load run. Each step of a connection's loop draws one action by weight;
 * an action is one request, except the bundle round trip (create, then delete what was created).
 */
import type { Dispatcher, Pool } from 'undici';
import type { Recorder } from './record.js';

/** One of the prepared feeds, and the hosted document's last ETag seen. */
export interface LoadFeed {
  id: string;
  /** Path of its hosted document (`/feeds/{id}.xml`), from its `rss_feed_url`. */
  hostedPath: string;
  etag: string | undefined;
}

export type Action = 'feed' | 'list' | 'hosted' | 'hostedConditional' | 'patchFeed' | 'patchSettings' | 'bundle';

/** Weights out of 100: 70 % reads, 20 % hosted documents, 10 % writes. */
export const mix: readonly (readonly [Action, number])[] = [
  ['feed', 60],
  ['list', 10],
  ['hosted', 10],
  ['hostedConditional', 10],
  ['patchFeed', 4],
  ['patchSettings', 3],
  ['bundle', 3],
];

const totalWeight = mix.reduce((sum, [, weight]) => sum + weight, 0);

/** The action a uniform draw `u` in [0, 1) falls on. */
export function pickAction(u: number): Action {
  let left = u * totalWeight;
  for (const [action, weight] of mix) {
    if (left < weight) return action;
    left -= weight;
  }
  return mix[mix.length - 1]?.[0] ?? 'feed';
}

export interface LoadTarget {
  pool: Pool;
  authorization: string;
  feeds: readonly LoadFeed[];
  recorder: Recorder;
}

interface Sent {
  status: number | undefined;
  headers: Dispatcher.ResponseData['headers'];
  text: string;
}

/** Sends one request under `kind`, reads the whole body, and records its outcome and latency. */
async function send(
  target: LoadTarget,
  kind: string,
  options: { method: Dispatcher.HttpMethod; path: string; headers?: Record<string, string>; body?: unknown },
): Promise<Sent> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.path.startsWith('/v1/')) headers.authorization = target.authorization;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  try {
    const response = await target.pool.request({
      method: options.method,
      path: options.path,
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
    const text = await response.body.text();
    target.recorder.add(kind, response.statusCode, performance.now() - started);
    return { status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    target.recorder.add(kind, typeof code === 'string' ? code : (error as Error).name, performance.now() - started);
    return { status: undefined, headers: {}, text: '' };
  }
}

const pickFeed = (feeds: readonly LoadFeed[]): LoadFeed => feeds[Math.floor(Math.random() * feeds.length)] as LoadFeed;

/** Runs one drawn action against the target. */
export async function step(target: LoadTarget, action: Action, n: number): Promise<void> {
  const feed = pickFeed(target.feeds);
  switch (action) {
    case 'feed':
      await send(target, 'GET /v1/feeds/:id', { method: 'GET', path: `/v1/feeds/${feed.id}` });
      return;
    case 'list': {
      const limit = 1 + (n % 100);
      const offset = n % target.feeds.length;
      await send(target, 'GET /v1/feeds?limit&offset', { method: 'GET', path: `/v1/feeds?limit=${limit}&offset=${offset}` });
      return;
    }
    case 'hosted':
    case 'hostedConditional': {
      const conditional = action === 'hostedConditional' && feed.etag !== undefined;
      const kind = action === 'hosted' ? 'GET /feeds/:id.xml' : 'GET /feeds/:id.xml If-None-Match';
      const sent = await send(target, kind, {
        method: 'GET',
        path: feed.hostedPath,
        headers: conditional ? { 'if-none-match': feed.etag as string } : {},
      });
      // A title edit changes the document: the next conditional GET asks for the new version.
      const etag = sent.headers.etag;
      if (typeof etag === 'string') feed.etag = etag;
      return;
    }
    case 'patchFeed':
      await send(target, 'PATCH /v1/feeds/:id', {
        method: 'PATCH',
        path: `/v1/feeds/${feed.id}`,
        body: { title: `Load feed ${feed.id} edit ${n}` },
      });
      return;
    case 'patchSettings':
      await send(target, 'PATCH /v1/feeds/:id/settings', {
        method: 'PATCH',
        path: `/v1/feeds/${feed.id}/settings`,
        body: { customAuthor: n % 2 === 0 ? `Load author ${n}` : null },
      });
      return;
    case 'bundle': {
      const created = await send(target, 'POST /v1/bundles', {
        method: 'POST',
        path: '/v1/bundles',
        body: { name: `Load bundle ${n}`, feeds: [feed.id, pickFeed(target.feeds).id] },
      });
      if (created.status !== 200) return;
      const { id } = JSON.parse(created.text) as { id: string };
      await send(target, 'DELETE /v1/bundles/:id', { method: 'DELETE', path: `/v1/bundles/${id}` });
      return;
    }
  }
}

/**
 * `connections` loops, each sending its next request when the last body is read, until `seconds`
 * have passed: a loop starts no request after the deadline, so the run ends by itself within one
 * request time (bounded by the pool's timeouts). Resolves with the seconds it took.
 */
export async function runLoops(target: LoadTarget, connections: number, seconds: number): Promise<number> {
  const started = performance.now();
  const end = started + seconds * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await step(target, pickAction(Math.random()), n++);
    }),
  );
  return (performance.now() - started) / 1000;
}
