import { Redis } from 'ioredis';
import type { OpmlEntry, OpmlImport, OpmlOutcome } from '../../domain/opml.js';
import { keptImportSeconds, type OpmlImportStore } from '../../ports/opml-import-store.js';

const prefix = 'feedmill:opml-import:';

/**
 * Cluster mode: an import's record is a hash, its outcomes a list (one RPUSH per outline, so progress
 * costs the same at the thousandth outline as at the first) and its outlines one JSON string, all
 * expiring a week after the start. Any API replica reads what the worker running it writes.
 */
export function createRedisOpmlImportStore(redis: Redis): OpmlImportStore {
  const keys = (id: string) => ({ job: `${prefix}${id}`, outcomes: `${prefix}${id}:outcomes`, entries: `${prefix}${id}:entries` });
  return {
    async create(job, entries) {
      const key = keys(job.id);
      await redis
        .multi()
        .hset(key.job, {
          accountId: job.accountId,
          total: job.total,
          status: job.status,
          startedAt: job.startedAt,
          finishedAt: job.finishedAt ?? '',
        })
        .set(key.entries, JSON.stringify(entries), 'EX', keptImportSeconds)
        .expire(key.job, keptImportSeconds)
        .exec();
    },
    async get(id) {
      const key = keys(id);
      const [record, outcomes] = await Promise.all([redis.hgetall(key.job), redis.lrange(key.outcomes, 0, -1)]);
      if (record.accountId === undefined) return undefined;
      const parsed = outcomes.map((outcome) => JSON.parse(outcome) as OpmlOutcome);
      const job: OpmlImport = {
        id,
        accountId: record.accountId,
        status: record.status === 'finished' ? 'finished' : 'running',
        total: Number(record.total),
        done: parsed.length,
        outcomes: parsed,
        startedAt: record.startedAt ?? '',
        finishedAt: record.finishedAt ? record.finishedAt : null,
      };
      return job;
    },
    async entries(id) {
      const json = await redis.get(keys(id).entries);
      return json === null ? undefined : (JSON.parse(json) as OpmlEntry[]);
    },
    async addOutcome(id, outcome) {
      const key = keys(id);
      await redis.multi().rpush(key.outcomes, JSON.stringify(outcome)).expire(key.outcomes, keptImportSeconds).exec();
    },
    async finish(id, at) {
      await redis.hset(keys(id).job, { status: 'finished', finishedAt: at });
    },
  };
}

/** The connection imports are kept on: commands wait out a short Redis blip rather than fail an outline's progress. */
export function createImportRedis(url: string, onError: (error: Error) => void): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 3 });
  client.on('error', onError);
  return client;
}
