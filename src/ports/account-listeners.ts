import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';
import type { EventListener } from './event-bus.js';

/**
 * One process's event listeners, by account: the delivery rule of the EventBus port, which the
 * in-process bus and the Redis bus share so that both deliver alike.
 */
export interface AccountListeners {
  add(accountId: string, listener: EventListener): () => void;
  /**
   * Calls each listener of the event's account once, in the order the account's events came. A
   * listener that throws or rejects is reported and does not keep the event from the others. An
   * account with at most `sliceSize` listeners hears the event before this returns.
   */
  deliver(envelope: FeedEventEnvelope): void;
  readonly size: number;
  clear(): void;
}

/**
 * Listener calls made for one account in one turn of the event loop. Each call wakes a subscriber
 * whose work (selecting, serialising, writing to its socket) runs right after, before the loop
 * reads any socket: 2,500 subscribers of one feed on one process are half a second of it. In
 * slices, an event of another account arriving meanwhile is delivered between two slices instead
 * of after the whole fan-out.
 */
export const sliceSize = 100;

interface Delivery {
  envelope: FeedEventEnvelope;
  /** The account's listeners when the event came: one subscribed later does not hear it. */
  listeners: EventListener[];
  /** The account's listeners now: one that stopped listening meanwhile is not called. */
  live: Set<EventListener>;
  next: number;
}

export function accountListeners(onError: (error: unknown) => void): AccountListeners {
  const byAccount = new Map<string, Set<EventListener>>();
  // Deliveries begun and not finished, oldest first, by account: an account's next event waits
  // for the one before, so every listener hears its account's events in order.
  const unfinished = new Map<string, Delivery[]>();
  let scheduled = false;

  /** One slice of a delivery; true when it has reached every listener. */
  const callSlice = (delivery: Delivery): boolean => {
    const end = Math.min(delivery.next + sliceSize, delivery.listeners.length);
    for (; delivery.next < end; delivery.next += 1) {
      const listener = delivery.listeners[delivery.next] as EventListener;
      if (!delivery.live.has(listener)) continue;
      try {
        const outcome = listener(delivery.envelope);
        if (outcome) outcome.catch(onError);
      } catch (error) {
        onError(error);
      }
    }
    return delivery.next === delivery.listeners.length;
  };
  /** A slice for each account with a delivery unfinished, in turn. */
  const continueDeliveries = (): void => {
    scheduled = false;
    for (const [accountId, queue] of unfinished) {
      if (!callSlice(queue[0] as Delivery)) continue;
      queue.shift();
      if (queue.length === 0) unfinished.delete(accountId);
    }
    schedule();
  };
  const schedule = (): void => {
    if (scheduled || unfinished.size === 0) return;
    scheduled = true;
    setImmediate(continueDeliveries);
  };

  return {
    add(accountId, listener) {
      let listeners = byAccount.get(accountId);
      if (!listeners) byAccount.set(accountId, (listeners = new Set()));
      // A listener object added twice is still one listener.
      listeners.add(listener);
      const own = listeners;
      return () => {
        if (own.delete(listener) && own.size === 0 && byAccount.get(accountId) === own) byAccount.delete(accountId);
      };
    },
    deliver(envelope) {
      const live = byAccount.get(envelope.accountId);
      if (!live) return;
      const delivery: Delivery = { envelope, listeners: [...live], live, next: 0 };
      const queue = unfinished.get(envelope.accountId);
      if (queue) queue.push(delivery);
      else if (!callSlice(delivery)) unfinished.set(envelope.accountId, [delivery]);
      schedule();
    },
    get size() {
      let size = 0;
      for (const listeners of byAccount.values()) size += listeners.size;
      return size;
    },
    clear() {
      byAccount.clear();
      unfinished.clear();
    },
  };
}
