/** Messages between `bench/events.ts` (the server side) and its subscriber child over IPC. */

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes (up to the measured offset). */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export interface OpenRequest {
  type: 'open';
  wsUrl: string;
  /** The server's self-signed certificate, the only one the clients trust. */
  ca: string;
  authorization: string;
  query: string;
  count: number;
  /** Connections being opened at once. */
  concurrency: number;
}

export type ParentMessage =
  | OpenRequest
  | { type: 'clock'; id: number }
  /** Send what has arrived for this event even if not every subscriber has it yet. */
  | { type: 'flush'; eventId: string }
  | { type: 'cpu' }
  | { type: 'close' };

export type ChildMessage =
  | { type: 'opened'; count: number; ms: number }
  | { type: 'clock'; id: number; now: number }
  /** Arrival times (child's `wallNow`) of one event at each subscriber that received it. */
  | { type: 'event'; eventId: string; stamps: number[] }
  | { type: 'failed'; message: string }
  /** `process.cpuUsage()`, user plus system, microseconds. */
  | { type: 'cpu'; micros: number }
  | { type: 'closed' };
