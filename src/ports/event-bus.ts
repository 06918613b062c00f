import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';

export type EventListener = (envelope: FeedEventEnvelope) => void | Promise<void>;

/** Fan-out of feed events to every process that listens (webhook dispatch, GraphQL subscriptions). */
export interface EventBus {
  publish(envelope: FeedEventEnvelope): Promise<void>;
  /** Returns the function that stops listening. */
  subscribe(listener: EventListener): () => void;
  /** How many listeners this process has (a gauge for /metrics). */
  readonly listenerCount: number;
  close(): Promise<void>;
}
