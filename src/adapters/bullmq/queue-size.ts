import type { Queue } from 'bullmq';

/** A count kept from Redis in the background, for a getter that must answer synchronously. */
export interface CachedSize {
  readonly value: number;
  /** Refreshes shortly (changes come in bursts: one read serves them all). */
  refreshSoon(): void;
  /** Stops refreshing and waits for a read in flight, so the queue can be closed after it. */
  stop(): Promise<void>;
}

const soonMs = 20;

/** Jobs waiting, delayed or running in the whole queue (every process), re-read every `everyMs`. */
export function cachedQueueSize(queue: Queue, everyMs: number, onError: (error: Error) => void): CachedSize {
  let value = 0;
  let reading: Promise<void> | undefined;
  let soon: NodeJS.Timeout | undefined;
  let stopped = false;
  // A change made while a read is in flight may have missed it: read once more after it.
  let again = false;

  const refresh = (): void => {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = queue
      .getJobCounts('wait', 'prioritized', 'delayed', 'active')
      .then((counts) => {
        value = Object.values(counts).reduce((sum, count) => sum + count, 0);
      })
      .catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        reading = undefined;
        if (again) {
          again = false;
          refresh();
        }
      });
  };
  const every = setInterval(refresh, everyMs).unref();
  refresh();

  return {
    get value() {
      return value;
    },
    refreshSoon() {
      if (stopped || soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        refresh();
      }, soonMs).unref();
    },
    async stop() {
      stopped = true;
      clearInterval(every);
      if (soon) clearTimeout(soon);
      while (reading) await reading;
    },
  };
}
