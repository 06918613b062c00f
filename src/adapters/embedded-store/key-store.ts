import type { ApiKey, Scope } from '../../domain/api-key.js';
import type { KeyStore } from '../../ports/key-store.js';
import type { Db } from './database.js';

interface KeyRow {
  id: string;
  account_id: string;
  scopes: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

const toKey = (row: KeyRow): ApiKey => ({
  id: row.id,
  accountId: row.account_id,
  scopes: row.scopes.split(',') as Scope[],
  secretHash: row.secret_hash,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

export function createEmbeddedKeyStore(db: Db): KeyStore {
  const insert = db.prepare(
    'INSERT INTO api_keys (id, account_id, scopes, secret_hash, created_at, revoked_at, last_used_at) VALUES (?, ?, ?, ?, ?, NULL, ?)',
  );
  const byId = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE id = ?');
  const all = db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  return {
    async insert(key) {
      insert.run(key.id, key.accountId, key.scopes.join(','), key.secretHash, key.createdAt, key.lastUsedAt);
    },
    async get(id) {
      const row = byId.get(id);
      return row ? toKey(row) : undefined;
    },
    async list() {
      return all.all().map(toKey);
    },
    async revoke(id, revokedAt) {
      return revoke.run(revokedAt, id).changes === 1;
    },
    async touch(id, at) {
      touch.run(at, id);
    },
  };
}
