import type { ApiKey, Scope } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import { isKeyId, newKeyId, newKeySecret } from '../domain/ids.js';
import type { AppDeps } from './deps.js';
import { hashSecret } from './secret-hash.js';

/** A new key pair; `secret` exists only in this value, the store keeps its hash. */
export interface CreatedKey {
  key: string;
  secret: string;
  account: string;
  scopes: Scope[];
  created_at: string;
}

export type KeyDeps = Pick<AppDeps, 'keys' | 'clock' | 'random'>;

const accountPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export async function createKey(deps: KeyDeps, account: string, scopes: Scope[]): Promise<CreatedKey> {
  if (!accountPattern.test(account)) {
    throw new FeedmillError('validation_failed', `Expected an account name of 1 to 64 letters, digits, '.', '_' or '-', got \`${account}\``);
  }
  const id = newKeyId(deps.random);
  const secret = newKeySecret(deps.random);
  const createdAt = deps.clock.now().toISOString();
  await deps.keys.insert({ id, accountId: account, scopes, secretHash: await hashSecret(secret), createdAt, revokedAt: null });
  return { key: id, secret, account, scopes, created_at: createdAt };
}

/** Keys without their hashes. */
export async function listKeys(deps: Pick<AppDeps, 'keys'>): Promise<Omit<ApiKey, 'secretHash'>[]> {
  return (await deps.keys.list()).map(({ secretHash: _hash, ...rest }) => rest);
}

export async function revokeKey(deps: KeyDeps, keyId: string): Promise<void> {
  if (!isKeyId(keyId) || !(await deps.keys.revoke(keyId, deps.clock.now().toISOString()))) {
    throw new FeedmillError('key_not_found', `No live API key \`${keyId}\`; see \`feedmill keys list\``);
  }
}
