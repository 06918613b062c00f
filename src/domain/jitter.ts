import type { RandomBytes } from './ids.js';

/**
 * The share of its spread a backoff or a poll plan takes this time (nextAttemptAt, nextPollAt):
 * in [0, 1), from one random byte, so schedules made at the same moment drift apart.
 */
export const jitter = (random: RandomBytes): number => (random(1)[0] ?? 0) / 256;
