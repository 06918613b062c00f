/** Messages between `bench/events/cluster.ts` and its subscriber children (`cluster-child.ts`). */

interface Connection {
  /** `https://127.0.0.1:PORT` of the API process it connects to. */
  origin: string;
  authorization: string;
}

/** One subscriber: a graphql-ws subscription (`query`) on its own WebSocket, or a `GET /v1/events` stream. */
export type SubscriberSpec = (Connection & { kind: 'ws'; query: string }) | (Connection & { kind: 'sse' });

export type ToChild =
  { type: 'open'; subscribers: SubscriberSpec[]; ca: string; concurrency: number } | { type: 'report' } | { type: 'close' };

/** What every subscriber of the child received of one event. */
export interface EventArrivals {
  /** The path it came by: an event of an account with both reaches each path once per subscriber. */
  kind: SubscriberSpec['kind'];
  eventId: string;
  /** Subscribers that received it (each counted once). */
  received: number;
  /** Deliveries beyond the first to the same subscriber. */
  duplicates: number;
  /** Wall-clock ms of the last first arrival. */
  lastAt: number;
}

export type FromChild =
  | { type: 'opened'; ms: number }
  | {
      type: 'report';
      events: EventArrivals[];
      /** Problems: a socket or stream that closed, an error in place of an event. */
      failures: string[];
      /** This process's event-loop delay over the run, ms. */
      loopDelayP99Ms: number;
      loopDelayMaxMs: number;
      cpuMs: number;
      rssMb: number;
    }
  | { type: 'closed' }
  | { type: 'failed'; message: string };
