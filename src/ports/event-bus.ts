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

/** One process's listeners, by account: the delivery rule both buses share. */
export interface AccountListeners {
  add(accountId: string, listener: EventListener): () => void;
  /**
   * Calls each listener of the event's account once, in one loop: no promise is made for a
   * listener that returns none. A listener that throws or rejects is reported and does not keep
   * the event from the others.
   */
  deliver(envelope: FeedEventEnvelope): void;
  readonly size: number;
  clear(): void;
}

export function accountListeners(onError: (error: unknown) => void): AccountListeners {
  const byAccount = new Map<string, Set<EventListener>>();
  let size = 0;
  return {
    add(accountId, listener) {
      let listeners = byAccount.get(accountId);
      if (!listeners) byAccount.set(accountId, (listeners = new Set()));
      // A listener object added twice is still one listener (as it was in one Set of all).
      if (!listeners.has(listener)) {
        listeners.add(listener);
        size += 1;
      }
      const own = listeners;
      return () => {
        if (!own.delete(listener)) return;
        size -= 1;
        if (own.size === 0 && byAccount.get(accountId) === own) byAccount.delete(accountId);
      };
    },
    deliver(envelope) {
      const listeners = byAccount.get(envelope.accountId);
      if (!listeners) return;
      // A snapshot: a listener that unsubscribes another, or itself, while this event is delivered changes nothing here.
      for (const listener of [...listeners]) {
        try {
          const outcome = listener(envelope);
          if (outcome) outcome.catch(onError);
        } catch (error) {
          onError(error);
        }
      }
    },
    get size() {
      return size;
    },
    clear() {
      // Emptied too, so that a stop function called after this removes nothing and counts nothing.
      for (const listeners of byAccount.values()) listeners.clear();
      byAccount.clear();
      size = 0;
    },
  };
}
