import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';

export interface Traffic {
  /** Answers by request kind and status; transport failures as `error`. */
  readonly counts: Map<string, Record<string, number>>;
  /** Answers that were neither 2xx nor 304, and transport failures. */
  readonly errors: number;
  /** Feeds live now (the churn adds and deletes). */
  readonly feeds: readonly string[];
  stop(): Promise<void>;
}

export interface TrafficOptions {
  origin: string;
  ca: string;
  authorization: string;
  feeds: string[];
  readsPerSecond: number;
  churnSeconds: number;
  /** The source address of the next feed the churn creates. */
  nextUrl: () => string;
}

/**
 * The clients of a running service: hosted documents, the REST reads a client polls with (one feed,
 * the list), and churn (every `churnSeconds` a feed created and the oldest one the churn made deleted).
 */
export function startTraffic(options: TrafficOptions): Traffic {
  const pool = new Pool(options.origin, { connections: 8, connect: { ca: options.ca, servername: 'localhost' } });
  const counts = new Map<string, Record<string, number>>();
  const feeds = [...options.feeds];
  const churned: string[] = [];
  let errors = 0;
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  const call = async (kind: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<string | undefined> => {
    const tally = counts.get(kind) ?? {};
    counts.set(kind, tally);
    try {
      const response = await pool.request({
        method,
        path,
        headers: { authorization: options.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await response.body.text();
      tally[response.statusCode] = (tally[response.statusCode] ?? 0) + 1;
      if ((response.statusCode < 200 || response.statusCode > 299) && response.statusCode !== 304) {
        errors += 1;
        return undefined;
      }
      return text;
    } catch {
      tally.error = (tally.error ?? 0) + 1;
      errors += 1;
      return undefined;
    }
  };
  let tick = 0;
  const reads = setInterval(() => {
    const id = feeds[Math.floor(Math.random() * feeds.length)];
    if (id === undefined || inFlight.size >= 32) return;
    tick += 1;
    if (tick % 3 === 0) void track(call('hosted document', 'GET', `/feeds/${id}.xml`));
    else if (tick % 3 === 1) void track(call('GET /v1/feeds/:id', 'GET', `/v1/feeds/${id}`));
    else void track(call('GET /v1/feeds', 'GET', '/v1/feeds?limit=20'));
  }, 1000 / options.readsPerSecond);
  const churn = setInterval(() => {
    void track(
      (async () => {
        const created = await call('POST /v1/feeds', 'POST', '/v1/feeds', { url: options.nextUrl() });
        if (created) {
          const { id } = JSON.parse(created) as { id: string };
          feeds.push(id);
          churned.push(id);
        }
        // The oldest feed the churn made, once there are two: each lives about two churn periods.
        const old = churned.length > 1 ? churned.shift() : undefined;
        if (old === undefined) return;
        feeds.splice(feeds.indexOf(old), 1);
        // Reads already sent for it land first: a read of a feed deleted meanwhile would be a 404 of our making.
        await sleep(2_000);
        await call('DELETE /v1/feeds/:id', 'DELETE', `/v1/feeds/${old}`);
      })(),
    );
  }, options.churnSeconds * 1000);
  return {
    counts,
    get errors() {
      return errors;
    },
    feeds,
    async stop() {
      clearInterval(reads);
      clearInterval(churn);
      await Promise.all(inFlight);
      await pool.close();
    },
  };
}
