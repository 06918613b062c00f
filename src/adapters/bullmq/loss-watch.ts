import type { Redis } from 'ioredis';

export interface LossWatch {
  /** Stops watching and waits for a check (or a rebuild) in flight. */
  stop(): Promise<void>;
}

/**
 * Notices that Redis lost the queue's data (restarted without persistence, flushed, failed over to
 * an empty replica) so the jobs can be rebuilt from the store: nothing else would ever schedule
 * them again. A marker key is written when watching starts; a later check that can write it again
 * (`SET NX` succeeds) means everything was lost with it. Only that one watcher, among all workers
 * sharing the queue, calls `onLost`, so the store is read once per loss.
 */
export function watchForLoss(
  redis: Redis,
  markerKey: string,
  everyMs: number,
  onLost: () => Promise<void>,
  onError: (error: Error) => void,
): LossWatch {
  let checking: Promise<void> | undefined;
  let stopped = false;
  const check = async (): Promise<void> => {
    const wrote = await redis.set(markerKey, String(Date.now()), 'NX');
    if (wrote !== 'OK' || stopped) return;
    try {
      await onLost();
    } catch (error) {
      // Unmarked again, so the next check (here or in another worker) tries the rebuild again.
      await redis.del(markerKey);
      throw error;
    }
  };
  const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
  // The first write only marks: a fresh queue has lost nothing, and start-up schedules from the store anyway.
  checking = redis
    .set(markerKey, String(Date.now()), 'NX')
    .then(() => undefined)
    .catch((error: unknown) => onError(asError(error)))
    .finally(() => (checking = undefined));
  const timer = setInterval(() => {
    if (checking || stopped) return;
    checking = check()
      .catch((error: unknown) => onError(asError(error)))
      .finally(() => (checking = undefined));
  }, everyMs).unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (checking) await checking;
    },
  };
}
