import type { Session } from '../../domain/user.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { Db } from './database.js';

interface SessionRow {
  id: string;
  email: string;
  account_id: string;
  created_at: string;
  last_seen_at: string;
}

const toSession = (row: SessionRow): Session => ({
  id: row.id,
  email: row.email,
  accountId: row.account_id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
});

export function createEmbeddedSessionStore(db: Db): SessionStore {
  const insert = db.prepare(
    'INSERT INTO sessions (id, email, account_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
  );
  const byId = db.prepare<[string], SessionRow>('SELECT id, email, account_id, created_at, last_seen_at FROM sessions WHERE id = ?');
  const touch = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  return {
    async insert(session, expiresAt) {
      insert.run(session.id, session.email, session.accountId, session.createdAt, session.lastSeenAt, expiresAt);
    },
    async get(id) {
      const row = byId.get(id);
      return row ? toSession(row) : undefined;
    },
    async touch(id, lastSeenAt) {
      touch.run(lastSeenAt, id);
    },
    async delete(id) {
      remove.run(id);
    },
  };
}

/** Deletes sessions past their absolute end (the hourly prune); returns how many. */
export function pruneSessions(db: Db, now: Date): number {
  return db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now.toISOString()).changes;
}
