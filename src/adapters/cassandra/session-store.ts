import type { types } from 'cassandra-driver';
import type { Session } from '../../domain/user.js';
import type { SessionStore } from '../../ports/session-store.js';
import { statement, type Cql } from './cql.js';
import { instant, optionalText, text } from './row.js';

const columns = 'id, email, account_id, created_at, last_seen_at';
// Rewriting the same session with the same TTL leaves the same row: idempotent.
const insert = statement(`INSERT INTO {ks}.sessions (${columns}, expires_at) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?`, true);
const byId = statement(`SELECT ${columns} FROM {ks}.sessions WHERE id = ?`, true);
const expiry = statement('SELECT expires_at FROM {ks}.sessions WHERE id = ?', true);
// IF EXISTS: a touch racing a sign-out must not bring back a row of one cell. The cell gets the
// row's remaining TTL, so it does not outlive the session.
const touch = statement('UPDATE {ks}.sessions USING TTL ? SET last_seen_at = ? WHERE id = ? IF EXISTS', false);
const remove = statement('DELETE FROM {ks}.sessions WHERE id = ?', true);

/** Whole seconds from now until `expiresAt`; 0 when it has passed (a TTL must be at least 1). */
const secondsUntil = (expiresAt: string): number => Math.ceil((instant(expiresAt, 'expiresAt').getTime() - Date.now()) / 1000);

const toSession = (row: types.Row): Session => ({
  id: text(row, 'id'),
  email: text(row, 'email'),
  accountId: text(row, 'account_id'),
  createdAt: text(row, 'created_at'),
  lastSeenAt: text(row, 'last_seen_at'),
});

export function createCassandraSessionStore(cql: Cql): SessionStore {
  return {
    async insert(session, expiresAt) {
      const ttl = secondsUntil(expiresAt);
      // Already over: nothing to keep (Cassandra refuses a TTL of 0 or less as "no TTL" or an error).
      if (ttl <= 0) return;
      await cql.execute(insert, [session.id, session.email, session.accountId, session.createdAt, session.lastSeenAt, expiresAt, ttl]);
    },
    async get(id) {
      const row = await cql.one(byId, [id]);
      return row ? toSession(row) : undefined;
    },
    async touch(id, lastSeenAt) {
      const row = await cql.one(expiry, [id]);
      const expiresAt = row ? optionalText(row, 'expires_at') : null;
      if (expiresAt === null) return;
      const ttl = secondsUntil(expiresAt);
      if (ttl > 0) await cql.applied(touch, [ttl, lastSeenAt, id]);
    },
    async delete(id) {
      await cql.execute(remove, [id]);
    },
  };
}
