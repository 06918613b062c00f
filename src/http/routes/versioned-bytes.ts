/**
 * Serialized responses kept per key and version, so a client polling a resource that has not
 * changed costs the version check alone: no item reads, no serialization. The least recently used
 * entries go first once the cache holds more than `maxBytes`.
 */
export interface VersionedBytes {
  /** The bytes cached for `key` at `version`, or `make()`'s, which are then cached. */
  get(key: string, version: string, make: () => Promise<Buffer>): Promise<Buffer>;
  readonly bytes: number;
}

/** @param maxBytes @default 32 MiB */
export function createVersionedBytes(maxBytes = 32 * 1024 * 1024): VersionedBytes {
  const entries = new Map<string, { version: string; body: Buffer }>();
  let bytes = 0;
  const remove = (key: string): void => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.body.length;
  };
  return {
    get bytes() {
      return bytes;
    },
    async get(key, version, make) {
      const cached = entries.get(key);
      if (cached?.version === version) {
        // Map keeps insertion order: moving the entry to the end marks it recently used.
        entries.delete(key);
        entries.set(key, cached);
        return cached.body;
      }
      const body = await make();
      remove(key);
      entries.set(key, { version, body });
      bytes += body.length;
      for (const oldest of entries.keys()) {
        if (bytes <= maxBytes || oldest === key) break;
        remove(oldest);
      }
      return body;
    },
  };
}
