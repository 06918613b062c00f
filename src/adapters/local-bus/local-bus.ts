import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import { accountListeners } from '../../ports/account-listeners.js';
import type { EventBus } from '../../ports/event-bus.js';

/**
 * The in-process event bus of embedded mode: publishing delivers at once to the listeners of the
 * event's account. A listener that throws or rejects is reported and does not keep the event from
 * the others.
 */
export function createLocalBus(onError: (error: unknown) => void = () => undefined): EventBus {
  const listeners = accountListeners(onError);
  return {
    async publish(envelope: FeedEventEnvelope) {
      listeners.deliver(envelope);
    },
    subscribe: (accountId, listener) => listeners.add(accountId, listener),
    get listenerCount() {
      return listeners.size;
    },
    async close() {
      listeners.clear();
    },
  };
}
