import type { ApiKey } from '../domain/api-key.js';

export interface KeyStore {
  insert(key: ApiKey): Promise<void>;
  get(keyId: string): Promise<ApiKey | undefined>;
  list(): Promise<ApiKey[]>;
  /** True when it revoked a live key. */
  revoke(keyId: string, revokedAt: string): Promise<boolean>;
  /** Records that the key was used at `at`; an unknown key is left unknown (nothing is created). */
  touch(keyId: string, at: string): Promise<void>;
}
