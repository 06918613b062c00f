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
}

export function createSharedReadCache<V>(
  changes: ChangeBus,
  kind: 'feeds' | 'keys',
  clock: Clock,
  options: SharedReadCacheOptions = {},
): SharedReadCache<V> {
  const maxAgeMs = options.maxAgeMs ?? backstopMs;
  const entries = createLru<{ readAt: number; views: Map<string, V> }>({ maxEntries: options.maxEntries ?? 10_000 });
  // Counts notices: a read that started under another count may have been overtaken by one.
  let generation = 0;
  const drop = (ids: readonly string[]): void => {
    generation++;
    for (const id of ids) entries.delete(id);
  };
  changes.subscribe((notice) => {
    if (notice === 'everything') {
      generation++;
      entries.clear();
    } else if (notice[kind].length > 0) {
      drop(notice[kind]);
    }
  });
  return {
    drop,
    async read(id, view, load, keep) {
      const now = clock.now().getTime();
      const entry = changes.live ? entries.get(id) : undefined;
      if (entry && now - entry.readAt < maxAgeMs && entry.views.has(view)) return entry.views.get(view) as V;
      const before = generation;
      const value = await load();
      if (before !== generation || !changes.live || !keep(value)) return value;
      const current = entries.get(id);
      if (current && now - current.readAt < maxAgeMs) current.views.set(view, value);
      else entries.set(id, { readAt: now, views: new Map([[view, value]]) });
      return value;
    },
  };
}
