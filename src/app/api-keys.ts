import { accountNameRule, isAccountName } from '../domain/account.js';
import type { ApiKey, Principal, Scope } from '../domain/api-key.js';
import { FeedmillError, fieldRefusal } from '../domain/errors.js';
import { isKeyId, newKeyId, newKeySecret } from '../domain/ids.js';
import type { AppDeps } from './deps.js';
import { hashSecret } from '../crypto/secret-hash.js';
import { expectedMessage } from '../domain/field-message.js';

/** A new key pair; `secret` exists only in this value, the store keeps its hash. */
export interface CreatedKey {
  key: string;
  secret: string;
  account: string;
  scopes: Scope[];
  created_at: string;
}

export type KeyDeps = Pick<AppDeps, 'keys' | 'clock' | 'random'>;

export async function createKey(deps: KeyDeps, account: string, scopes: Scope[]): Promise<CreatedKey> {
  if (!isAccountName(account)) throw fieldRefusal('account', expectedMessage('account', accountNameRule, { value: account }));
  const id = newKeyId(deps.random);
  const secret = newKeySecret(deps.random);
  const createdAt = deps.clock.now().toISOString();
  await deps.keys.insert({
    id,
    accountId: account,
    scopes,
    secretHash: await hashSecret(secret),
    createdAt,
    revokedAt: null,
    lastUsedAt: null,
  });
  return { key: id, secret, account, scopes, created_at: createdAt };
}

/** A key as it may be shown: everything but the hash of its secret. */
export type KeyView = Omit<ApiKey, 'secretHash'>;

const view = ({ secretHash: _hash, ...rest }: ApiKey): KeyView => rest;

/** Keys without their hashes. */
export async function listKeys(deps: Pick<AppDeps, 'keys'>): Promise<KeyView[]> {
  return (await deps.keys.list()).map(view);
}

/**
 * The caller's account's keys (revoked ones too, with when), newest first. A filter of `list()`:
 * an installation holds a handful of keys, so an index by account would cost every store a table
 * (Cassandra) for no measurable gain; the port grows `listByAccount` when that changes.
 */
export async function listAccountKeys(deps: Pick<AppDeps, 'keys'>, principal: Principal): Promise<KeyView[]> {
  const ours = (await deps.keys.list()).filter((key) => key.accountId === principal.accountId);
  return ours.reverse().map(view);
}

export async function revokeKey(deps: Pick<AppDeps, 'keys' | 'clock'>, keyId: string): Promise<void> {
  if (!isKeyId(keyId) || !(await deps.keys.revoke(keyId, deps.clock.now().toISOString()))) {
    throw new FeedmillError('key_not_found', `No live API key \`${keyId}\`; see \`feedmill keys list\``);
  }
}

/** Revokes one of the caller's account's keys; another account's key is not found (DESIGN.md: 404, never 403). */
export async function revokeAccountKey(deps: Pick<AppDeps, 'keys' | 'clock'>, principal: Principal, keyId: string): Promise<void> {
  const key = isKeyId(keyId) ? await deps.keys.get(keyId) : undefined;
  if (!key || key.accountId !== principal.accountId || !(await deps.keys.revoke(keyId, deps.clock.now().toISOString()))) {
    throw new FeedmillError('key_not_found', `No live API key \`${keyId}\` in this account`);
  }
}
