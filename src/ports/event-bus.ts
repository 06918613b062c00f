import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';

export type EventListener = (envelope: FeedEventEnvelope) => void | Promise<void>;

/**
 * Fan-out of feed events to every process that listens (GraphQL subscriptions, `GET /v1/events`
 * streams, dashboard pages). Every listener serves one account, so it registers with it and hears
 * only that account's events: a process with thousands of listeners over many accounts does work
 * per event only for the listeners it concerns.
 */
export interface EventBus {
  publish(envelope: FeedEventEnvelope): Promise<void>;
  /** Listens to the events of `accountId`; returns the function that stops listening. */
  subscribe(accountId: string, listener: EventListener): () => void;
  /** How many listeners this process has (a gauge for /metrics). */
  readonly listenerCount: number;
  close(): Promise<void>;
}
