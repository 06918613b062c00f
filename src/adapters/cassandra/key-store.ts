import { types } from 'cassandra-driver';
import type { ApiKey, Scope } from '../../domain/api-key.js';
import type { KeyStore } from '../../ports/key-store.js';
import { statement, type Cql } from './cql.js';
import { optionalText, text, textList } from './row.js';

const columns = 'id, account_id, scopes, secret_hash, created_at, revoked_at, last_used_at';
const insert = statement(`INSERT INTO {ks}.api_keys (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?) IF NOT EXISTS`, false);
const byId = statement(`SELECT ${columns} FROM {ks}.api_keys WHERE id = ?`, true);
// An installation holds a handful of keys and `feedmill keys list` shows them all: a scan is the
// honest query, and sorting them here keeps the order the embedded store gives.
const every = statement(`SELECT ${columns} FROM {ks}.api_keys`, true);
// `account_id != null`: the key exists (`revoked_at = null` alone holds for a missing row and
// would create one). Not idempotent: a retry of a revoke that applied would answer false.
const revoke = statement('UPDATE {ks}.api_keys SET revoked_at = ? WHERE id = ? IF account_id != null AND revoked_at = null', false);
// Conditional, so an unknown id gets no row; a Paxos round at most once per key per 5 minutes per
// process (src/app/authenticate.ts) is cheap. Running it twice leaves the later time: idempotent enough.
const touch = statement('UPDATE {ks}.api_keys SET last_used_at = ? WHERE id = ? IF EXISTS', false);

const toKey = (row: types.Row): ApiKey => ({
  id: text(row, 'id'),
  accountId: text(row, 'account_id'),
  scopes: textList(row, 'scopes') as Scope[],
  secretHash: text(row, 'secret_hash'),
  createdAt: text(row, 'created_at'),
  revokedAt: optionalText(row, 'revoked_at'),
  lastUsedAt: optionalText(row, 'last_used_at'),
});

const oldestFirst = (a: ApiKey, b: ApiKey): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function createCassandraKeyStore(cql: Cql): KeyStore {
  return {
    async insert(key) {
      // A new key is live, as in the embedded store: revoked_at is left unset (null would write a tombstone).
      const params = [key.id, key.accountId, key.scopes, key.secretHash, key.createdAt, types.unset, key.lastUsedAt ?? types.unset];
      if (!(await cql.applied(insert, params))) throw new Error(`An API key with id \`${key.id}\` already exists`);
    },
    async get(id) {
      const row = await cql.one(byId, [id]);
      return row ? toKey(row) : undefined;
    },
    async list() {
      return (await cql.all(every, [])).map(toKey).sort(oldestFirst);
    },
    async revoke(id, revokedAt) {
      return cql.applied(revoke, [revokedAt, id]);
    },
    async touch(id, at) {
      await cql.applied(touch, [at, id]);
    },
  };
}
