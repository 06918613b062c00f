import { Redis } from 'ioredis';
import type { FeedEventEnvelope } from '../../webhook-event/feed-update-event.js';
import { accountListeners } from '../../ports/account-listeners.js';
import type { EventBus } from '../../ports/event-bus.js';
import { channelOfDatabase } from './channel.js';

export interface RedisBusOptions {
  /**
   * Redis URL.
   * @example 'redis://127.0.0.1:6379'
   */
  url: string;
  /**
   * The pub/sub channel; every process of one deployment uses the same one.
   * @default 'feedmill:events', and 'feedmill:events:db3' on database 3 (see channelOfDatabase)
   */
  channel?: string;
  /**
   * Told about a listener that threw or rejected, a message that is not an envelope, and Redis
   * connection errors (ioredis reconnects and subscribes again by itself).
   */
  onError?: (error: unknown) => void;
}

/** The event bus with `ready`, for the composition root and tests to wait for the subscription. */
export interface RedisBus extends EventBus {
  /** Resolves once this process is subscribed: from then on it hears every event published. */
  ready(): Promise<void>;
}

/**
 * The cluster event bus over Redis pub/sub: an event published by any process (a worker that
 * refreshed a feed) reaches the listeners of its account in every process (API replicas serving
 * subscriptions and event streams). Every process hears every event on the one channel; the cost
 * per event in a process is one parse and a call for each listener of that account. A subscribed
 * connection can issue no other command, hence two connections. Pub/sub delivers at most once to
 * whoever listens at that moment; events that must not be lost travel through the store's outbox,
 * this only fans them out.
 */
export function createRedisBus(options: RedisBusOptions): RedisBus {
  const onError = options.onError ?? ((): void => undefined);
  const listeners = accountListeners(onError);
  const publisher = new Redis(options.url, { connectionName: 'feedmill-bus-publisher' });
  const channel = options.channel ?? channelOfDatabase('feedmill:events', publisher.options.db);
  const subscriber = new Redis(options.url, { connectionName: 'feedmill-bus-subscriber' });
  publisher.on('error', onError);
  subscriber.on('error', onError);

  const deliver = (message: string): void => {
    let envelope: FeedEventEnvelope;
    try {
      envelope = JSON.parse(message) as FeedEventEnvelope;
    } catch (error) {
      onError(new Error(`Expected a JSON event envelope on ${channel}, got ${JSON.stringify(message.slice(0, 80))}`, { cause: error }));
      return;
    }
    listeners.deliver(envelope);
  };
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) deliver(message);
  });
  const subscribed = subscriber.subscribe(channel).then(() => undefined);
  // Reported here; `ready()` and `publish` still reject for whoever waits on them.
  subscribed.catch(onError);
  let closing: Promise<void> | undefined;

  return {
    ready: () => subscribed,
    async publish(envelope) {
      if (closing) throw new Error(`Expected an open bus to publish event ${envelope.event.id}, but the Redis bus is closed`);
      await publisher.publish(channel, JSON.stringify(envelope));
    },
    subscribe: (accountId, listener) => listeners.add(accountId, listener),
    get listenerCount() {
      return listeners.size;
    },
    close() {
      closing ??= (async () => {
        listeners.clear();
        await Promise.allSettled([subscriber.quit(), publisher.quit()]);
      })();
      return closing;
    },
  };
}
