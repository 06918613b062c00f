import type { Redis } from 'ioredis';

/**
 * When a delayed job is planned to run, read from BullMQ's `delayed` sorted set. BullMQ keeps no
 * public accessor for it (`job.delay` is relative to an unrecorded moment). The score encoding is
 * BullMQ's `includes/getDelayedScore.lua`: planned milliseconds × 0x1000 plus a 12-bit sequence.
 * Pinned to bullmq 6.7.0; the "an earlier schedule wins" contract test guards the encoding.
 */
export async function plannedTime(redis: Redis, delayedKey: string, id: string): Promise<number | undefined> {
  const score = await redis.zscore(delayedKey, id);
  return score === null ? undefined : Math.floor(Number(score) / 0x1000);
}
