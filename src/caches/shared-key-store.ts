import type { ChangeBus } from '../ports/change-bus.js';
import type { Clock } from '../ports/clock.js';
import type { KeyStore } from '../ports/key-store.js';
import type { ApiKey } from '../domain/api-key.js';
import { createSharedReadCache, type SharedReadCacheOptions } from './shared-read-cache.js';

/**
 * A key store for one process of a cluster: a revocation is announced on the change bus, and with
 * `cache` the key records read by the authentication check are kept until such a notice arrives,
 * so a busy client costs no store read per request and a revoked key is refused by every replica
 * as soon as the notice reaches it. Unknown keys are never kept (a key created a moment later must
 * work at once), nor is anything while the bus is not live.
 *
 * `touch` (last used) is not announced: the authentication check does not look at it.
 */
export function sharedKeyStore(store: KeyStore, changes: ChangeBus, clock: Clock, cache?: SharedReadCacheOptions): KeyStore {
  const reads = cache ? createSharedReadCache<ApiKey | undefined>(changes, 'keys', clock, cache) : undefined;
  return {
    async insert(key) {
      await store.insert(key);
      reads?.drop([key.id]);
      await changes.publish({ keys: [key.id] });
    },
    get: (keyId) =>
      reads
        ? reads.read(
            keyId,
            'key',
            () => store.get(keyId),
            (key) => key !== undefined,
          )
        : store.get(keyId),
    list: () => store.list(),
    async revoke(keyId, revokedAt) {
      try {
        return await store.revoke(keyId, revokedAt);
      } finally {
        reads?.drop([keyId]);
        await changes.publish({ keys: [keyId] });
      }
    },
    touch: (keyId, at) => store.touch(keyId, at),
  };
}
