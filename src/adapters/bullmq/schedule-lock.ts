import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

// Deletes the lock only while it is still ours: after an expiry another holder may own the key.
const releaseScript = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * The lock sections are a handful of Redis round trips; the expiry only matters when a process
 * dies holding one, and bounds how long the others then wait.
 */
export const holdMs = 10_000;
const waitMs = 15_000;

/**
 * Runs `section` while holding a short per-job Redis lock (SET NX PX). Every change this adapter
 * makes to a job's plan — `schedule`, `cancel` and the end of a run — runs under it, so a
 * `schedule` that finds the job running and leaves a request on it can never slip between the
 * end of the run reading the requests and moving the job (which would lose the request).
 */
export async function withScheduleLock<T>(redis: Redis, key: string, section: () => Promise<T>): Promise<T> {
  const token = randomBytes(12).toString('base64url');
  const deadline = Date.now() + waitMs;
  let pause = 2;
  while ((await redis.set(key, token, 'PX', holdMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline)
      throw new Error(`Expected to take the schedule lock ${key} within ${waitMs} ms, but another process held it throughout`);
    await sleep(pause);
    pause = Math.min(pause * 2, 10);
  }
  try {
    return await section();
  } finally {
    await redis.eval(releaseScript, 1, key, token);
  }
}
