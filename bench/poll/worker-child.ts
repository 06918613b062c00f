/**
 * One feedmill worker process for the poll benchmark, composed as `feedmill worker` composes it
 * (`composeRuntime` from FEEDMILL_* variables: SQLite and the local scheduler, or Cassandra and
 * BullMQ). It creates `BENCH_POLL_FEEDS` feeds through the create-feed use case (their first,
 * unconditional fetch), then runs rounds on request: each schedules a range of feeds for now and
 * times the refresh jobs until the last one is done. Every document handed to the parser pool is
 * counted.
 */
import type { Principal } from '../../src/domain/api-key.js';
import { createFeed } from '../../src/app/create-feed.js';
import { refreshFeedHandler } from '../../src/jobs/refresh-feed.js';
import { composeRuntime } from '../../src/main/compose.js';
import { loadConfig } from '../../src/main/config.js';
import { createLogger } from '../../src/main/logger.js';
import type { FeedParser } from '../../src/ports/feed-parser.js';
import type { FromWorker, ToWorker } from './protocol.js';

const send = (message: FromWorker): void => void process.send?.(message);

/** Counts the documents that reach the pool. */
function countingParser(inner: FeedParser): FeedParser & { readonly calls: number } {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    parse: (body, meta) => {
      calls += 1;
      return inner.parse(body, meta);
    },
    extractPage: (body, meta) => {
      calls += 1;
      return inner.extractPage(body, meta);
    },
    extractArticle: (body, meta) => {
      calls += 1;
      return inner.extractArticle(body, meta);
    },
    close: () => inner.close(),
  };
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_POLL_FEEDS);
  const origin = process.env.BENCH_POLL_ORIGIN ?? '';
  const createConcurrency = Number(process.env.BENCH_POLL_CREATE_CONCURRENCY ?? 16);
  const config = loadConfig(process.env);
  const runtime = await composeRuntime(config, createLogger({ logLevel: 'warn' }), 'worker');
  const parser = countingParser(runtime.deps.parser);
  const deps = { ...runtime.deps, parser };
  const principal: Principal = { accountId: 'bench', keyId: 'bench', scopes: ['read', 'write'] };

  const started = performance.now();
  const ids: string[] = new Array<string>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: createConcurrency }, async () => {
      for (let n = next++; n < count; n = next++) ids[n] = (await createFeed(deps, principal, { url: `${origin}/feeds/${n}.xml` })).feed.id;
    }),
  );
  send({ type: 'ready', created: count, ms: performance.now() - started, parses: parser.calls });

  // BENCH_POLL_NEXT_MS: each run plans the next one this far ahead, as in production (the job moves
  // itself back to delayed); otherwise the next run is dropped.
  const nextMs = process.env.BENCH_POLL_NEXT_MS === undefined ? undefined : Number(process.env.BENCH_POLL_NEXT_MS);
  let handled = 0;
  let round: { left: number; statuses: Record<string, number>; done: () => void } | undefined;
  // The real job handler; its log line carries the outcome. The next run it plans is dropped, so a
  // round runs each of its feeds exactly once.
  const refresh = refreshFeedHandler(deps, {
    info: (fields) => {
      if (!round) return;
      const status = typeof fields.error === 'string' ? `failed: ${fields.error}` : String(fields.status);
      round.statuses[status] = (round.statuses[status] ?? 0) + 1;
    },
  });
  await runtime.deps.scheduler.start(async (job) => {
    await refresh(job);
    handled += 1;
    if (round) {
      round.left -= 1;
      if (round.left === 0) round.done();
    }
    return nextMs === undefined ? null : new Date(Date.now() + nextMs);
  });

  process.on('message', (message: ToWorker) => {
    if (message.type === 'close') {
      void runtime.close().then(() => {
        send({ type: 'closed' });
        process.disconnect();
      });
      return;
    }
    if (message.type === 'count') {
      send({ type: 'count', refreshes: handled });
      return;
    }
    if (message.type === 'schedule') {
      void (async () => {
        const now = new Date();
        for (let n = message.from; n < message.to; n++) await runtime.deps.scheduler.schedule(ids[n] as string, now);
        send({ type: 'scheduled' });
      })().catch((error: unknown) => send({ type: 'failed', message: String(error) }));
      return;
    }
    void (async () => {
      const parsesBefore = parser.calls;
      const cpuBefore = process.cpuUsage();
      const begin = performance.now();
      const finished = new Promise<void>((resolve) => {
        round = { left: message.to - message.from, statuses: {}, done: resolve };
      });
      const now = new Date();
      for (let n = message.from; n < message.to; n++) await runtime.deps.scheduler.schedule(ids[n] as string, now);
      await finished;
      const ms = performance.now() - begin;
      const cpu = process.cpuUsage(cpuBefore);
      send({
        type: 'round',
        ms,
        statuses: round?.statuses ?? {},
        parses: parser.calls - parsesBefore,
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
      round = undefined;
    })().catch((error: unknown) => send({ type: 'failed', message: String(error) }));
  });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
});
