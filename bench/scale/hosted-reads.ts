import { Pool } from 'undici';

export interface HostedReads {
  /** Answers by status, and transport failures as `error`. */
  readonly statuses: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * Reads hosted documents (`GET /feeds/{id}.xml`) of feeds picked at random, `perSecond` of them a
 * second, so the API's read cache sees the whole store rather than a hot few.
 */
export function readHostedFeeds(origin: string, ca: string, ids: readonly string[], perSecond: number): HostedReads {
  const pool = new Pool(origin, { connections: 4, connect: { ca, servername: 'localhost' } });
  const statuses: Record<string, number> = {};
  const count = (status: string): void => void (statuses[status] = (statuses[status] ?? 0) + 1);
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const id = ids[Math.floor(Math.random() * ids.length)];
    if (id === undefined || inFlight.size >= 64) return count('skipped');
    const read = pool
      .request({ method: 'GET', path: `/feeds/${id}.xml` })
      .then(async (response) => {
        await response.body.dump();
        count(String(response.statusCode));
      })
      .catch(() => count('error'))
      .finally(() => inFlight.delete(read));
    inFlight.add(read);
  }, 1000 / perSecond);
  return {
    statuses,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      await pool.close();
    },
  };
}
