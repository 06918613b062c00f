import type { RefreshHandler, Scheduler } from '../../ports/scheduler.js';

export interface LocalSchedulerOptions {
  /**
   * Refreshes running at once.
   * @default 8
   */
  concurrency?: number;
  /** Told about a handler that threw; the feed is tried again after `retryAfterMs`. */
  onError?: (feedId: string, error: unknown) => void;
  /** @default 60000 */
  retryAfterMs?: number;
}

// setTimeout holds at most 2^31-1 ms (~24.8 days); a later run is re-armed when the timer fires.
const maxTimer = 2 ** 31 - 1;

interface Entry {
  at: number;
  timer?: NodeJS.Timeout;
}

/**
 * The in-process scheduler of embedded mode: one timer per feed, at most one run per feed at a
 * time, `concurrency` runs at once. A feed scheduled while it runs keeps the earlier of the two
 * times; a feed cancelled while it runs is not rescheduled.
 */
export function createLocalScheduler(options: LocalSchedulerOptions = {}): Scheduler {
  const concurrency = options.concurrency ?? 8;
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  const entries = new Map<string, Entry>();
  // A due feed with the entry whose timer fired: if the feed was cancelled or rescheduled since,
  // its entry has changed and this one is stale.
  const due: { feedId: string; entry: Entry }[] = [];
  const running = new Map<string, Promise<void>>();
  const cancelled = new Set<string>();
  let handler: RefreshHandler | undefined;
  let closed = false;

  const arm = (feedId: string, entry: Entry): void => {
    const delay = Math.max(0, entry.at - Date.now());
    entry.timer = setTimeout(() => {
      if (entry.at > Date.now()) return arm(feedId, entry);
      entry.timer = undefined;
      due.push({ feedId, entry });
      pump();
    }, Math.min(delay, maxTimer));
  };

  const put = (feedId: string, at: number): void => {
    const existing = entries.get(feedId);
    if (existing?.timer) clearTimeout(existing.timer);
    const entry: Entry = { at };
    entries.set(feedId, entry);
    if (!running.has(feedId)) arm(feedId, entry);
  };

  const run = async (feedId: string, work: RefreshHandler): Promise<void> => {
    let next: Date | null;
    try {
      next = await work({ feedId });
    } catch (error) {
      // A throwing reporter must not leave the feed marked as running forever.
      try {
        options.onError?.(feedId, error);
      } catch {
        // nothing more we can do with it
      }
      next = new Date(Date.now() + retryAfterMs);
    }
    // An invalid date from a handler is retried like a failure rather than dropped silently.
    if (next !== null && Number.isNaN(next.getTime())) next = new Date(Date.now() + retryAfterMs);
    running.delete(feedId);
    const pending = entries.get(feedId);
    if (closed) return;
    if (!cancelled.delete(feedId)) {
      const at = Math.min(next?.getTime() ?? Infinity, pending ? pending.at : Infinity);
      if (Number.isFinite(at)) put(feedId, at);
      else entries.delete(feedId);
    }
    // The slot this run held is free, cancelled or not.
    pump();
  };

  function pump(): void {
    while (handler && !closed && running.size < concurrency && due.length > 0) {
      const next = due.shift();
      if (next === undefined || running.has(next.feedId) || entries.get(next.feedId) !== next.entry) continue;
      const { feedId } = next;
      entries.delete(feedId);
      running.set(feedId, run(feedId, handler));
    }
  }

  return {
    async start(work) {
      handler = work;
      pump();
    },
    async schedule(feedId, runAt) {
      if (closed) return;
      cancelled.delete(feedId);
      const existing = entries.get(feedId);
      // An earlier time already planned wins: scheduling is idempotent and never delays a run.
      put(feedId, existing ? Math.min(existing.at, runAt.getTime()) : runAt.getTime());
    },
    async cancel(feedId) {
      const entry = entries.get(feedId);
      if (entry?.timer) clearTimeout(entry.timer);
      entries.delete(feedId);
      if (running.has(feedId)) cancelled.add(feedId);
    },
    async close() {
      closed = true;
      for (const entry of entries.values()) if (entry.timer) clearTimeout(entry.timer);
      entries.clear();
      await Promise.all(running.values());
    },
  };
}
