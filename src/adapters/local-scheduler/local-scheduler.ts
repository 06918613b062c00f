import type { JobHandler, RetryDelay, Scheduler } from '../../ports/scheduler.js';

export interface LocalSchedulerOptions {
  /**
   * Refreshes running at once.
   * @default 8
   */
  concurrency?: number;
  /** Told about a handler that threw; the job is tried again after `retryDelay`. */
  onError?: (id: string, error: unknown) => void;
  /** When a job whose handler threw runs again. */
  retryDelay: RetryDelay;
  /** Told how late (seconds) each job started against its planned time. */
  onLag?: (seconds: number) => void;
}

// setTimeout holds at most 2^31-1 ms (~24.8 days); a later run is re-armed when the timer fires.
const maxTimer = 2 ** 31 - 1;

interface Entry {
  at: number;
  timer?: NodeJS.Timeout;
}

/**
 * The in-process scheduler of embedded mode: one timer per job id, at most one run per id at a
 * time, `concurrency` runs at once. A job scheduled while it runs keeps the earlier of the two
 * times; a job cancelled while it runs is not rescheduled.
 */
export function createLocalScheduler(options: LocalSchedulerOptions): Scheduler {
  const concurrency = options.concurrency ?? 8;
  const entries = new Map<string, Entry>();
  // Handler failures in a row per job id, for the retry policy; a run that returns clears them.
  const failures = new Map<string, number>();
  // A due job with the entry whose timer fired: if the job was cancelled or rescheduled since,
  // its entry has changed and this one is stale.
  const due: { id: string; entry: Entry }[] = [];
  const running = new Map<string, Promise<void>>();
  const cancelled = new Set<string>();
  let handler: JobHandler | undefined;
  let closed = false;

  const arm = (id: string, entry: Entry): void => {
    const delay = Math.max(0, entry.at - Date.now());
    entry.timer = setTimeout(
      () => {
        if (entry.at > Date.now()) return arm(id, entry);
        entry.timer = undefined;
        due.push({ id, entry });
        pump();
      },
      Math.min(delay, maxTimer),
    );
  };

  const put = (id: string, at: number): void => {
    const existing = entries.get(id);
    if (existing?.timer) clearTimeout(existing.timer);
    const entry: Entry = { at };
    entries.set(id, entry);
    if (!running.has(id)) arm(id, entry);
  };

  const failed = (id: string, error: unknown): Date => {
    const count = (failures.get(id) ?? 0) + 1;
    failures.set(id, count);
    // A throwing reporter must not leave the job marked as running forever.
    try {
      options.onError?.(id, error);
    } catch {
      // nothing more we can do with it
    }
    return new Date(Date.now() + options.retryDelay(error, count));
  };

  const run = async (id: string, work: JobHandler): Promise<void> => {
    let next: Date | null;
    try {
      next = await work({ id });
      // An invalid date from a handler is retried like a failure rather than dropped silently.
      if (next !== null && Number.isNaN(next.getTime()))
        next = failed(id, new Error(`Expected the handler of job ${id} to return a valid Date or null, got an invalid Date`));
      else failures.delete(id);
    } catch (error) {
      next = failed(id, error);
    }
    running.delete(id);
    const pending = entries.get(id);
    if (closed) return;
    if (!cancelled.delete(id)) {
      const at = Math.min(next?.getTime() ?? Infinity, pending ? pending.at : Infinity);
      if (Number.isFinite(at)) put(id, at);
      else {
        entries.delete(id);
        failures.delete(id);
      }
    } else failures.delete(id);
    // The slot this run held is free, cancelled or not.
    pump();
  };

  function pump(): void {
    while (handler && !closed && running.size < concurrency && due.length > 0) {
      const next = due.shift();
      if (next === undefined || running.has(next.id) || entries.get(next.id) !== next.entry) continue;
      const { id } = next;
      options.onLag?.((Date.now() - next.entry.at) / 1000);
      entries.delete(id);
      running.set(id, run(id, handler));
    }
  }

  return {
    get size() {
      return entries.size + running.size;
    },
    async start(work) {
      handler = work;
      pump();
    },
    async schedule(id, runAt) {
      if (closed) return;
      cancelled.delete(id);
      const existing = entries.get(id);
      // An earlier time already planned wins: scheduling is idempotent and never delays a run.
      put(id, existing ? Math.min(existing.at, runAt.getTime()) : runAt.getTime());
    },
    async ensure(jobs) {
      for (const { id, runAt } of jobs) {
        if (closed || entries.has(id) || (running.has(id) && !cancelled.has(id))) continue;
        cancelled.delete(id);
        put(id, runAt.getTime());
      }
    },
    async cancel(id) {
      const entry = entries.get(id);
      if (entry?.timer) clearTimeout(entry.timer);
      entries.delete(id);
      if (running.has(id)) cancelled.add(id);
    },
    async close() {
      closed = true;
      for (const entry of entries.values()) if (entry.timer) clearTimeout(entry.timer);
      entries.clear();
      await Promise.all(running.values());
    },
  };
}
