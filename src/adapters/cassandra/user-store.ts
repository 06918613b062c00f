import { types } from 'cassandra-driver';
import type { User } from '../../domain/user.js';
import type { UserStore } from '../../ports/user-store.js';
import { statement, type Cql } from './cql.js';
import { optionalText, text } from './row.js';

const columns = 'email, account_id, password_hash, created_at, sessions_valid_after';
const insert = statement(`INSERT INTO {ks}.users (${columns}) VALUES (?, ?, ?, ?, ?) IF NOT EXISTS`, false);
const byEmail = statement(`SELECT ${columns} FROM {ks}.users WHERE email = ?`, true);
// An installation has a handful of people and `feedmill users list` shows them all: a scan is the
// honest query, sorted here into the embedded store's order.
const every = statement(`SELECT ${columns} FROM {ks}.users`, true);
// IF EXISTS: an update of a missing email would otherwise create a row without an account.
const setPassword = statement('UPDATE {ks}.users SET password_hash = ?, sessions_valid_after = ? WHERE email = ? IF EXISTS', false);
const endSessions = statement('UPDATE {ks}.users SET sessions_valid_after = ? WHERE email = ? IF EXISTS', false);
// A user's sessions are not deleted with them: they cannot resume without the user, and their TTL ends them.
const remove = statement('DELETE FROM {ks}.users WHERE email = ? IF EXISTS', false);

const toUser = (row: types.Row): User => ({
  email: text(row, 'email'),
  accountId: text(row, 'account_id'),
  passwordHash: text(row, 'password_hash'),
  createdAt: text(row, 'created_at'),
  sessionsValidAfter: optionalText(row, 'sessions_valid_after'),
});

const oldestFirst = (a: User, b: User): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.email < b.email ? -1 : a.email > b.email ? 1 : 0;

export function createCassandraUserStore(cql: Cql): UserStore {
  return {
    async insert(user) {
      // null would write a tombstone: an unset column reads back as null all the same.
      return cql.applied(insert, [user.email, user.accountId, user.passwordHash, user.createdAt, user.sessionsValidAfter ?? types.unset]);
    },
    async get(email) {
      const row = await cql.one(byEmail, [email]);
      return row ? toUser(row) : undefined;
    },
    async list() {
      return (await cql.all(every, [])).map(toUser).sort(oldestFirst);
    },
    async setPassword(email, passwordHash, at) {
      return cql.applied(setPassword, [passwordHash, at, email]);
    },
    async endSessions(email, at) {
      return cql.applied(endSessions, [at, email]);
    },
    async delete(email) {
      return cql.applied(remove, [email]);
    },
  };
}
