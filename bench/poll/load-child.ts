/**
 * The load generator of the HTTP runs, in a process of its own: `connections` keep-alive HTTPS
 * connections (undici Pool, no pipelining), each sending the next GET as soon as the last answer's
 * body is read. Counts the 200s finished inside the measured window, after a warm-up.
 */
import { Pool } from 'undici';

export interface LoadRequest {
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** PEM of the server's certificate, trusted as the only CA. */
  ca: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Answers other than 200, and transport errors, in the measured window. */
  errors: number;
  bytesPerResponse: number;
  /** Cores the load generator itself kept busy. */
  cores: number;
}

async function run(request: LoadRequest): Promise<LoadResult> {
  const pool = new Pool(request.origin, {
    connections: request.connections,
    pipelining: 1,
    connect: { ca: request.ca, servername: 'localhost' },
  });
  const warmEnd = performance.now() + request.warmupSeconds * 1000;
  const end = warmEnd + request.seconds * 1000;
  let ok = 0;
  let errors = 0;
  let bytes = 0;
  let cpu = process.cpuUsage();
  let cpuTaken = false;
  await Promise.all(
    Array.from({ length: request.connections }, async () => {
      for (let now = performance.now(); now < end; now = performance.now()) {
        if (!cpuTaken && now >= warmEnd) {
          cpuTaken = true;
          cpu = process.cpuUsage();
        }
        const measured = now >= warmEnd;
        try {
          const response = await pool.request({ path: request.path, method: 'GET', headers: request.headers });
          let size = 0;
          for await (const chunk of response.body) size += (chunk as Buffer).length;
          if (!measured || performance.now() > end) continue;
          if (response.statusCode === 200) {
            ok += 1;
            bytes += size;
          } else errors += 1;
        } catch {
          if (measured) errors += 1;
        }
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  await pool.close();
  return {
    requestsPerSecond: ok / request.seconds,
    errors,
    bytesPerResponse: ok > 0 ? bytes / ok : 0,
    cores: (used.user + used.system) / 1e6 / request.seconds,
  };
}

run(JSON.parse(process.argv[2] ?? '{}') as LoadRequest).then(
  (result) => process.send?.(result, () => process.disconnect()),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
