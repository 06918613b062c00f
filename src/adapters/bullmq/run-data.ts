/**
 * What a BullMQ job of this adapter holds besides its id (which is the feed or delivery id): the
 * scheduler's bookkeeping, never the domain's state (STYLE.md habit 2).
 */
export interface RunData {
  /** Epoch ms the job is planned for; only for `onLag`. */
  runAt: number;
  /** Consecutive handler failures: the exponent of the retry backoff; 0 after a success. */
  failures: number;
  /**
   * A `schedule` (epoch ms, the earliest asked) or `cancel` made while the job was running. The
   * end of the run honours it; it lives in the job, so it disappears with it.
   */
  asked?: number | 'cancel';
}

/** The next run after one that returned `next` (null: done), given what was asked meanwhile. */
export function nextRunAt(next: number | null, asked: RunData['asked']): number | null {
  if (asked === 'cancel') return null;
  if (asked === undefined) return next;
  return next === null ? asked : Math.min(next, asked);
}

/** `schedule` during a run: the earliest time wins, and a time replaces a cancel. */
export function askRun(asked: RunData['asked'], at: number): number {
  return asked === undefined || asked === 'cancel' ? at : Math.min(asked, at);
}
