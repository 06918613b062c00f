/** Messages between the poll benchmark and its worker child (`worker-child.ts`). */

export type ToWorker = { type: 'round'; from: number; to: number } | { type: 'close' };

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
  | { type: 'closed' }
  | { type: 'failed'; message: string };
