import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { holdMs } from './schedule-lock.js';

/**
 * The end of a run's reads and writes before the move, in one round trip instead of four (take the
 * schedule lock, read the job, write its data, …): takes the job's schedule lock, reads what
 * `schedule`/`cancel` asked while it ran (`asked`, run-data.ts), decides the next run by the rule
 * of `nextRunAt`, and writes the job's data as BullMQ's own `updateData` script does (HSET of the
 * `data` field). The lock stays held for the move that follows, and is released after it.
 *
 * KEYS: the schedule lock, the job hash. ARGV: lock token, lock ms, the handler's next run (epoch
 * ms, or '' for done), failures so far.
 * Answers: 'busy' (someone else holds the lock: take the slow path), 'done' (complete the job),
 * 'gone' (the job hash is missing), or the epoch ms of the next run.
 */
const lua = `
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 'busy' end
local raw = redis.call('HGET', KEYS[2], 'data')
if not raw then return 'gone' end
local ok, data = pcall(cjson.decode, raw)
local asked = ok and type(data) == 'table' and data['asked'] or nil
local nextRun = ARGV[3] ~= '' and tonumber(ARGV[3]) or nil
local at
if asked == 'cancel' then at = nil
elseif type(asked) == 'number' then at = nextRun and math.min(nextRun, asked) or asked
else at = nextRun end
if not at then return 'done' end
redis.call('HSET', KEYS[2], 'data', string.format('{"runAt":%d,"failures":%d}', at, tonumber(ARGV[4])))
return string.format('%d', at)
`;

// Deletes the lock only while it is still ours (as schedule-lock.ts does).
const release = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

interface PlanNextCommands {
  feedmillPlanNext(lockKey: string, jobKey: string, token: string, holdMs: number, next: string, failures: number): Promise<string>;
  feedmillReleaseLock(lockKey: string, token: string): Promise<number>;
}

/** What the script decided; with a held lock, whose `release` must run after the move. */
export type Plan = { kind: 'busy' } | { kind: 'gone' | 'done' | 'delayed'; at: number; release(): Promise<void> };

const defined = new WeakSet<Redis>();

export async function planNext(redis: Redis, lockKey: string, jobKey: string, next: number | null, failures: number): Promise<Plan> {
  if (!defined.has(redis)) {
    // defineCommand sends EVALSHA and loads the script on NOSCRIPT: the script's text crosses once.
    redis.defineCommand('feedmillPlanNext', { numberOfKeys: 2, lua });
    redis.defineCommand('feedmillReleaseLock', { numberOfKeys: 1, lua: release });
    defined.add(redis);
  }
  // defineCommand adds the methods at run time; ioredis cannot type them.
  const commands = redis as unknown as PlanNextCommands;
  const token = randomBytes(12).toString('base64url');
  const answer = await commands.feedmillPlanNext(lockKey, jobKey, token, holdMs, next === null ? '' : String(next), failures);
  if (answer === 'busy') return { kind: 'busy' };
  const releaseLock = async (): Promise<void> => {
    await commands.feedmillReleaseLock(lockKey, token);
  };
  if (answer === 'done' || answer === 'gone') return { kind: answer, at: NaN, release: releaseLock };
  return { kind: 'delayed', at: Number(answer), release: releaseLock };
}
