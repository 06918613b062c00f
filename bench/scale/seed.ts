import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const childPath = fileURLToPath(new URL('./seed-child.js', import.meta.url));

export interface SeedResult {
  ids: string[];
  /** Feed n is first due at base + n × interval / feeds (epoch ms). */
  base: number;
  insertMs: number;
  scheduleMs: number;
}

/** Seeds the deployment's store and queue in a child process (`seed-child.ts`). */
export async function seedThroughStore(
  env: Record<string, string | undefined>,
  feeds: number,
  intervalMs: number,
  origin: string,
): Promise<SeedResult> {
  const child = fork(childPath, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...env,
      BENCH_SCALE_FEEDS: String(feeds),
      BENCH_SCALE_INTERVAL_MS: String(intervalMs),
      BENCH_SCALE_ORIGIN: origin,
    },
  });
  let result: SeedResult | undefined;
  child.on('message', (message: SeedResult) => (result = message));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!result) throw new Error(`Expected the seeding child to report its feeds, but it exited with ${code}`);
  return result;
}
