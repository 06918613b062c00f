import type { Redis } from 'ioredis';
import {
  authDelayMs,
  authMemoryMs,
  defaultAuthDelayPolicy,
  maxSourcesKept,
  sourceDelayMs,
  type AuthDelayPolicy,
} from '../../domain/auth-delay.js';
import type { AuthThrottle } from '../../ports/auth-throttle.js';

export interface RedisAuthThrottleOptions extends Partial<AuthDelayPolicy> {
  /** The rate limiter's connection (client.ts): short timeouts, no offline queue. */
  redis: Redis;
  /**
   * Prefix of the keys, one hash per subject (`failures`, `until`) and, for a subject counted by
   * source, a set of its sources (`…:sources`), each expiring when forgotten.
   * @default 'feedmill:auth-failures:'
   */
  prefix?: string;
}

// Counting and expiring in one step: a key never outlives the longest memory, even if the
// process stops before it records the wait.
const countFailure = `
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return failures`;

// Two API replicas may record a failure of one subject at once: the later wait wins only if longer.
const recordWait = `
local current = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if tonumber(ARGV[1]) > current then redis.call('HSET', KEYS[1], 'until', ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

// A subject counted by source: a source already in its set returns -1 (nothing changes); a new one
// joins it while it holds fewer than ARGV[2], and the set's size is returned. One key per script:
// the wait is recorded on the subject's hash by recordWait, as for other failures.
const countSource = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return -1 end
if redis.call('SCARD', KEYS[1]) < tonumber(ARGV[2]) then redis.call('SADD', KEYS[1], ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('SCARD', KEYS[1])`;

/**
 * The throttle of cluster mode: failures counted in Redis, so a guesser spreading attempts over
 * every API replica meets one count. The curve is the domain's (auth-delay.ts), computed here
 * from the count Redis returns.
 */
export function createRedisAuthThrottle(options: RedisAuthThrottleOptions): AuthThrottle {
  const { redis, prefix = 'feedmill:auth-failures:', ...rest } = options;
  const policy: AuthDelayPolicy = { ...defaultAuthDelayPolicy, ...rest };
  const keyOf = (subject: string): string => `${prefix}${subject}`;
  const sourcesKeyOf = (subject: string): string => `${prefix}${subject}:sources`;
  return {
    async waitSeconds(subjects, now) {
      const untils = await Promise.all(subjects.map((subject) => redis.hget(keyOf(subject), 'until')));
      const until = Math.max(0, ...untils.map((value) => Number(value ?? 0)));
      return until > now ? Math.ceil((until - now) / 1000) : 0;
    },
    async failed(subjects, now) {
      await Promise.all(
        subjects.map(async (subject) => {
          const failures = Number(await redis.eval(countFailure, 1, keyOf(subject), String(authMemoryMs(policy.maxDelayMs, policy))));
          const delay = authDelayMs(failures, policy);
          await redis.eval(recordWait, 1, keyOf(subject), String(now + delay), String(authMemoryMs(delay, policy)));
        }),
      );
    },
    async failedFrom(subject, source, now) {
      const longest = String(authMemoryMs(policy.maxDelayMs, policy));
      const sources = Number(await redis.eval(countSource, 1, sourcesKeyOf(subject), source, String(maxSourcesKept(policy)), longest));
      if (sources < 0) return;
      const delay = sourceDelayMs(sources, policy);
      await redis.eval(recordWait, 1, keyOf(subject), String(now + delay), String(authMemoryMs(delay, policy)));
    },
    async succeeded(subject) {
      await redis.del(keyOf(subject), sourcesKeyOf(subject));
    },
  };
}
