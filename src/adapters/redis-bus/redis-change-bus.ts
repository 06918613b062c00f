import { Redis } from 'ioredis';
import type { ChangeBus, ChangeNotice } from '../../ports/change-bus.js';
import { channelOfDatabase } from './channel.js';

export interface RedisChangeBusOptions {
  /** @example 'redis://127.0.0.1:6379' */
  url: string;
  /**
   * The pub/sub channel; every process of one deployment uses the same one.
   * @default 'feedmill:changes', and 'feedmill:changes:db3' on database 3 (see channelOfDatabase)
   */
  channel?: string;
  /** Told about connection errors (ioredis reconnects by itself), notices that could not be sent and messages that are not notices. */
  onError?: (error: unknown) => void;
}

export interface RedisChangeBus extends ChangeBus {
  /** Resolves once this process is subscribed. */
  ready(): Promise<void>;
}

type Wire = { f?: string[]; k?: string[] };

/**
 * Change notices over Redis pub/sub. Notices published in one tick go out as one message: a worker
 * finishing eight refreshes at once sends one PUBLISH, not eight. While the subscribed connection
 * is down, notices published elsewhere are lost, so the bus says `live: false` and, on losing the
 * connection, tells its listeners `everything`; it is live again only once Redis has confirmed the
 * subscription on the new connection.
 */
export function createRedisChangeBus(options: RedisChangeBusOptions): RedisChangeBus {
  const onError = options.onError ?? ((): void => undefined);
  const listeners = new Set<(notice: ChangeNotice) => void>();
  const publisher = new Redis(options.url, { connectionName: 'feedmill-changes-publisher' });
  const channel = options.channel ?? channelOfDatabase('feedmill:changes', publisher.options.db);
  const subscriber = new Redis(options.url, { connectionName: 'feedmill-changes-subscriber', autoResubscribe: false });
  publisher.on('error', onError);
  subscriber.on('error', onError);
  let live = false;
  let closing: Promise<void> | undefined;

  const tell = (notice: ChangeNotice): void => {
    for (const listener of [...listeners]) {
      try {
        listener(notice);
      } catch (error) {
        onError(error);
      }
    }
  };
  const subscribe = async (): Promise<void> => {
    await subscriber.subscribe(channel);
    live = true;
  };
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    let wire: Wire;
    try {
      wire = JSON.parse(message) as Wire;
    } catch (error) {
      onError(new Error(`Expected a JSON change notice on ${channel}, got ${JSON.stringify(message.slice(0, 80))}`, { cause: error }));
      return;
    }
    tell({ feeds: wire.f ?? [], keys: wire.k ?? [] });
  });
  subscriber.on('close', () => {
    if (!live) return;
    live = false;
    tell('everything');
  });
  const subscribed = subscribe();
  subscribed.catch(onError);
  // Subscribed again by hand (autoResubscribe is off) so that `live` turns true only once Redis
  // has confirmed it, never in the moment between the reconnection and the subscription.
  subscriber.on('ready', () => {
    if (!closing && !live) subscribe().catch(onError);
  });

  const pending = { feeds: new Set<string>(), keys: new Set<string>() };
  let flush: Promise<void> | undefined;
  const send = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const wire: Wire = { f: [...pending.feeds], k: [...pending.keys] };
    pending.feeds.clear();
    pending.keys.clear();
    flush = undefined;
    try {
      await publisher.publish(channel, JSON.stringify(wire));
    } catch (error) {
      // The write it announces is done and must not fail for it; the readers' maximum age bounds
      // how long they may keep what this notice would have dropped.
      onError(error);
    }
  };

  return {
    ready: () => subscribed,
    get live() {
      return live && !closing;
    },
    async publish(changes) {
      if (closing) throw new Error('Expected an open change bus to publish on, but it is closed');
      for (const id of changes.feeds ?? []) pending.feeds.add(id);
      for (const id of changes.keys ?? []) pending.keys.add(id);
      flush ??= send();
      await flush;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closing ??= (async () => {
        await flush?.catch(() => undefined);
        listeners.clear();
        live = false;
        await Promise.allSettled([subscriber.quit(), publisher.quit()]);
      })();
      return closing;
    },
  };
}
