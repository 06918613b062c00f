/**
 * Child of `bench/scale.ts`: seeds the store directly, as a migration would, without fetching:
 * `BENCH_SCALE_FEEDS` feeds whose fetch state already holds the fixture's validators (so their first
 * refresh is an ordinary conditional one), then one refresh job each, due times spread evenly over
 * one interval from `base` (sent back). Composed from FEEDMILL_* as `feedmill worker` is.
 */
import { defaultFeedSettings, type Feed } from '../../src/domain/feed.js';
import { newFeedId } from '../../src/domain/ids.js';
import { composeRuntime } from '../../src/main/compose.js';
import { loadConfig } from '../../src/main/config.js';
import { createLogger } from '../../src/main/logger.js';
import { lastModified, seededEtag } from './fixture.js';
import type { SeedResult } from './seed.js';

const concurrency = 64;

async function inParallel(count: number, task: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let n = next++; n < count; n = next++) await task(n);
    }),
  );
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_SCALE_FEEDS);
  const intervalMs = Number(process.env.BENCH_SCALE_INTERVAL_MS);
  const origin = process.env.BENCH_SCALE_ORIGIN ?? '';
  const accountId = process.env.BENCH_SCALE_ACCOUNT ?? 'bench-scale';
  const runtime = await composeRuntime(loadConfig(process.env), createLogger({ logLevel: 'warn' }), 'worker');
  const { feeds, scheduler, random } = runtime.deps;
  const ids = Array.from({ length: count }, () => newFeedId(random));
  const startedInsert = performance.now();
  const created = new Date().toISOString();
  await inParallel(count, async (n) => {
    const feed: Feed = {
      id: ids[n] as string,
      accountId,
      title: `Scale feed ${n}`,
      description: '',
      icon: '',
      sourceUrl: `${origin}/scale/${n}.xml`,
      fetchUrl: `${origin}/scale/${n}.xml`,
      link: `${origin}/`,
      createdAt: created,
      updatedAt: created,
      settings: defaultFeedSettings,
      fetch: {
        reader: 'feed',
        errorCount: 0,
        unchangedStreak: 0,
        etag: seededEtag(n),
        lastModified,
      },
    };
    await feeds.insert(feed);
  });
  const insertMs = performance.now() - startedInsert;
  // Past the time the jobs take to place, so no feed is due before the workers start.
  const base = Date.now() + 5_000 + count / 2;
  const startedSchedule = performance.now();
  await inParallel(count, async (n) => {
    const at = new Date(base + Math.floor((n * intervalMs) / count));
    await feeds.saveFetchState(
      ids[n] as string,
      {
        reader: 'feed',
        errorCount: 0,
        unchangedStreak: 0,
        etag: seededEtag(n),
        lastModified,
        nextFetchAt: at.toISOString(),
      },
      `${origin}/scale/${n}.xml`,
    );
    await scheduler.schedule(ids[n] as string, at);
  });
  const scheduleMs = performance.now() - startedSchedule;
  await runtime.close();
  const result: SeedResult = { ids, base, insertMs, scheduleMs };
  process.send?.(result);
}

main().catch((error: unknown) => {
  process.stderr.write(`seed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
