import { Redis } from 'ioredis';
import type { FetchState } from '../../domain/feed.js';
import type { ChangeBus, ChangeNotice, FetchStateChange } from '../../ports/change-bus.js';
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

/**
 * `f` names every feed that changed, those of `s` included, so that a process still running the
 * release before `s` existed drops them all (a rolling upgrade loses nothing); `s` carries the
 * fetch states, as `[feedId, fetchUrl, fetch]`, of the feeds whose only change is that write.
 */
type Wire = { f?: string[]; k?: string[]; s?: [string, string, FetchState][] };

/** The fetch states of a message, leaving out any entry that is not one: its feed, named in `f`, is then dropped. */
function fetchStatesOf(wire: Wire): FetchStateChange[] {
  if (!Array.isArray(wire.s)) return [];
  return wire.s.flatMap((entry: unknown) => {
    if (!Array.isArray(entry) || entry.length !== 3) return [];
    const [feedId, fetchUrl, fetch] = entry as unknown[];
    if (typeof feedId !== 'string' || typeof fetchUrl !== 'string' || typeof fetch !== 'object' || fetch === null) return [];
    return [{ feedId, fetchUrl, fetch: fetch as FetchState }];
  });
}

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
    const fetchStates = fetchStatesOf(wire);
    const taken = new Set(fetchStates.map((change) => change.feedId));
    tell({ feeds: (wire.f ?? []).filter((feedId) => !taken.has(feedId)), keys: wire.k ?? [], fetchStates });
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

  const pending = { feeds: new Set<string>(), keys: new Set<string>(), fetchStates: new Map<string, FetchStateChange>() };
  let flush: Promise<void> | undefined;
  const send = async (): Promise<void> => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    // A feed also dropped in this message is only dropped: its other change may be anything.
    const fetchStates = [...pending.fetchStates.values()].filter((change) => !pending.feeds.has(change.feedId));
    const wire: Wire = { f: [...pending.feeds, ...fetchStates.map((change) => change.feedId)], k: [...pending.keys] };
    if (fetchStates.length > 0) wire.s = fetchStates.map((change) => [change.feedId, change.fetchUrl, change.fetch]);
    pending.feeds.clear();
    pending.keys.clear();
    pending.fetchStates.clear();
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
      // The later of two saves of one feed in a tick is the state it now has.
      for (const change of changes.fetchStates ?? []) pending.fetchStates.set(change.feedId, change);
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
