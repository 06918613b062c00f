export interface LruOptions<V> {
  /** At most this many entries. */
  maxEntries: number;
  /** At most this many bytes, as `sizeOf` counts them. @default Infinity */
  maxBytes?: number;
  /** @default () => 0 */
  sizeOf?: (value: V) => number;
}

/** A map that forgets its least recently used entries once it holds too many of them, or too many bytes. */
export interface Lru<V> {
  get(key: string): V | undefined;
  /** Like `get`, without counting as a use. */
  peek(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  clear(): void;
  readonly size: number;
  readonly bytes: number;
}

export function createLru<V>(options: LruOptions<V>): Lru<V> {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const sizeOf = options.sizeOf ?? ((): number => 0);
  const entries = new Map<string, { value: V; bytes: number }>();
  let bytes = 0;
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      // Map keeps insertion order: moving the entry to the end marks it recently used.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    peek: (key) => entries.get(key)?.value,
    set(key, value) {
      remove(key);
      const size = sizeOf(value);
      // A value larger than the whole budget would only push everything else out, then itself.
      if (size > maxBytes) return;
      entries.set(key, { value, bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if ((bytes <= maxBytes && entries.size <= options.maxEntries) || oldest === key) break;
        remove(oldest);
      }
    },
    delete: remove,
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}
