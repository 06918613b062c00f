import type { User } from '../../domain/user.js';
import type { UserStore } from '../../ports/user-store.js';
import type { Db } from './database.js';

interface UserRow {
  email: string;
  account_id: string;
  password_hash: string;
  created_at: string;
  sessions_valid_after: string | null;
}

const toUser = (row: UserRow): User => ({
  email: row.email,
  accountId: row.account_id,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
  sessionsValidAfter: row.sessions_valid_after,
});

export function createEmbeddedUserStore(db: Db): UserStore {
  const insert = db.prepare(
    'INSERT INTO users (email, account_id, password_hash, created_at, sessions_valid_after) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING',
  );
  const byEmail = db.prepare<[string], UserRow>('SELECT * FROM users WHERE email = ?');
  const all = db.prepare<[], UserRow>('SELECT * FROM users ORDER BY created_at, email');
  const setPassword = db.prepare('UPDATE users SET password_hash = ?, sessions_valid_after = ? WHERE email = ?');
  const endSessions = db.prepare('UPDATE users SET sessions_valid_after = ? WHERE email = ?');
  const remove = db.prepare('DELETE FROM users WHERE email = ?');
  // The user's sessions could no longer resume anyway (no user); deleting them keeps nothing behind.
  const removeSessions = db.prepare('DELETE FROM sessions WHERE email = ?');
  const removeBoth = db.transaction((email: string) => {
    removeSessions.run(email);
    return remove.run(email).changes === 1;
  });
  return {
    async insert(user) {
      return insert.run(user.email, user.accountId, user.passwordHash, user.createdAt, user.sessionsValidAfter).changes === 1;
    },
    async get(email) {
      const row = byEmail.get(email);
      return row ? toUser(row) : undefined;
    },
    async list() {
      return all.all().map(toUser);
    },
    async setPassword(email, passwordHash, at) {
      return setPassword.run(passwordHash, at, email).changes === 1;
    },
    async endSessions(email, at) {
      return endSessions.run(at, email).changes === 1;
    },
    async delete(email) {
      return removeBoth(email);
    },
  };
}
