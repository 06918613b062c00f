/** Messages between the poll benchmark and its worker child (`worker-child.ts`). */

export type ToWorker =
  | { type: 'round'; from: number; to: number }
  /** Schedules feeds `from`..`to` for now and answers at once (the `once` part counts refreshes at the source). */
  | { type: 'schedule'; from: number; to: number }
  | { type: 'count' }
  | { type: 'close' };

export interface RoundResult {
  type: 'round';
  /** First `schedule` call to the last refresh finished. */
  ms: number;
  /** Refresh outcomes by status (`not_modified`, `unchanged`, `changed`, `failed`). */
  statuses: Record<string, number>;
  /** Documents sent to the parser pool during the round. */
  parses: number;
  /** CPU time (user + system) of the worker process during the round. */
  cpuMs: number;
}

export type FromWorker =
  | { type: 'ready'; created: number; ms: number; parses: number }
  | RoundResult
  | { type: 'scheduled' }
  /** Refresh jobs this process has run since it started. */
  | { type: 'count'; refreshes: number }
  | { type: 'closed' }
  | { type: 'failed'; message: string };
