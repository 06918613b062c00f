import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import type { EventBus, EventListener } from '../../ports/event-bus.js';

/**
 * The in-process event bus of embedded mode. A listener that throws or rejects is reported and
 * does not keep the event from the others.
 */
export function createLocalBus(onError: (error: unknown) => void = () => undefined): EventBus {
  const listeners = new Set<EventListener>();
  return {
    async publish(envelope: FeedEventEnvelope) {
      const outcomes = await Promise.allSettled([...listeners].map(async (listener) => listener(envelope)));
      for (const outcome of outcomes) if (outcome.status === 'rejected') onError(outcome.reason);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get listenerCount() {
      return listeners.size;
    },
    async close() {
      listeners.clear();
    },
  };
}
