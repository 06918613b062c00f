import type { ChangeBus } from '../ports/change-bus.js';
import type { Clock } from '../ports/clock.js';
import { createLru } from './lru.js';

export interface SharedReadCacheOptions {
  /** Records kept, least recently used dropped first. @default 10_000 */
  maxEntries?: number;
  /**
   * A record read this long ago is read again even if no notice said it changed: the backstop for
   * a writer that could not publish (its Redis was away). @default backstopMs
   */
  maxAgeMs?: number;
}

/** How long a cached record is kept at most when no notice says it changed. */
export const backstopMs = 60_000;

/**
 * Store reads kept in this process and dropped when any process says the record changed (the
 * change bus). One record id may have several cached views (a feed by id and per account), all
 * dropped together. Nothing is kept while the bus is not live, and a read that a notice overtook
 * is not kept: it may hold what the notice just said was stale.
 */
export interface SharedReadCache<V> {
  read(id: string, view: string, load: () => Promise<V>, keep: (value: V) => boolean): Promise<V>;
  /** Drops `ids` here at once (the writer's own process), before the notice goes round. */
  drop(ids: readonly string[]): void;
  /**
   * Takes a change whose whole content is known (a notice carried it) into each cached view of
   * `id`, where `change` can (it returns undefined where it cannot, and the record is dropped).
   * Loads in flight are overtaken as by a drop: they may hold what the change replaced.
   */
  update(id: string, change: (value: V) => V | undefined): void;
}

/** A load in flight; `value` is set as soon as the load has started. */
interface Load<V> {
  value?: Promise<V>;
  overtaken: boolean;
}

export function createSharedReadCache<V>(
  changes: ChangeBus,
  kind: 'feeds' | 'keys',
  clock: Clock,
  options: SharedReadCacheOptions = {},
): SharedReadCache<V> {
  const maxAgeMs = options.maxAgeMs ?? backstopMs;
  const entries = createLru<{ readAt: number; views: Map<string, V> }>({ maxEntries: options.maxEntries ?? 10_000 });
  // Loads on their way back from the store, by id and view: readers of the same record wait for the
  // one load instead of each sending its own (a thousand subscribers of one feed read it at once).
  // A notice naming the id marks its loads overtaken and takes them off here, so no later reader joins them.
  const loading = new Map<string, Map<string, Load<V>>>();
  // Counts "everything" notices, which overtake every load in flight.
  let generation = 0;
  const overtake = (id: string): void => {
    for (const load of loading.get(id)?.values() ?? []) load.overtaken = true;
    loading.delete(id);
  };
  const drop = (ids: readonly string[]): void => {
    for (const id of ids) {
      entries.delete(id);
      overtake(id);
    }
  };
  const update = (id: string, change: (value: V) => V | undefined): void => {
    overtake(id);
    const entry = entries.peek(id);
    if (!entry) return;
    for (const [view, value] of entry.views) {
      const changed = change(value);
      if (changed === undefined) {
        entries.delete(id);
        return;
      }
      entry.views.set(view, changed);
    }
  };
  changes.subscribe((notice) => {
    if (notice === 'everything') {
      generation++;
      entries.clear();
      for (const id of [...loading.keys()]) overtake(id);
    } else if (notice[kind].length > 0) {
      drop(notice[kind]);
    }
  });
  return {
    drop,
    update,
    async read(id, view, load, keep) {
      const now = clock.now().getTime();
      if (!changes.live) return load();
      const entry = entries.get(id);
      if (entry && now - entry.readAt < maxAgeMs && entry.views.has(view)) return entry.views.get(view) as V;
      const joined = loading.get(id)?.get(view)?.value;
      if (joined) return joined;
      const before = generation;
      // Registered before the load starts: a notice that comes while it starts overtakes it too.
      const pending: Load<V> = { overtaken: false };
      const views = loading.get(id) ?? new Map<string, Load<V>>();
      views.set(view, pending);
      loading.set(id, views);
      let value: V;
      try {
        pending.value = load();
        value = await pending.value;
      } finally {
        if (views.get(view) === pending) views.delete(view);
        if (views.size === 0 && loading.get(id) === views) loading.delete(id);
      }
      if (pending.overtaken || before !== generation || !changes.live || !keep(value)) return value;
      const current = entries.get(id);
      if (current && now - current.readAt < maxAgeMs) current.views.set(view, value);
      else entries.set(id, { readAt: now, views: new Map([[view, value]]) });
      return value;
    },
  };
}
