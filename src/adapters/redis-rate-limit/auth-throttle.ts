import type { Redis } from 'ioredis';
import { authDelayMs, authMemoryMs, defaultAuthDelayPolicy, type AuthDelayPolicy } from '../../domain/auth-delay.js';
import type { AuthThrottle } from '../../ports/auth-throttle.js';

export interface RedisAuthThrottleOptions extends Partial<AuthDelayPolicy> {
  /** The rate limiter's connection (client.ts): short timeouts, no offline queue. */
  redis: Redis;
  /**
   * Prefix of the keys, one hash per subject (`failures`, `until`), each expiring when forgotten.
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

/**
 * The throttle of cluster mode: failures counted in Redis, so a guesser spreading attempts over
 * every API replica meets one count. The curve is the domain's (auth-delay.ts), computed here
 * from the count Redis returns.
 */
export function createRedisAuthThrottle(options: RedisAuthThrottleOptions): AuthThrottle {
  const { redis, prefix = 'feedmill:auth-failures:', ...rest } = options;
  const policy: AuthDelayPolicy = { ...defaultAuthDelayPolicy, ...rest };
  const keyOf = (subject: string): string => `${prefix}${subject}`;
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
    async succeeded(subject) {
      await redis.del(keyOf(subject));
    },
  };
}
