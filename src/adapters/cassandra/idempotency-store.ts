import type { types } from 'cassandra-driver';
import type { IdempotencyRecord, IdempotencyStore } from '../../ports/idempotency-store.js';
import { statement, type Cql } from './cql.js';
import { int, optionalText, text } from './row.js';

const key = 'WHERE account_id = ? AND key = ?';
// Not idempotent: a retry of a claim that applied would find its own claim and answer "in flight".
const claimFree = statement(
  "INSERT INTO {ks}.idempotency_keys (account_id, key, fingerprint, state, expires_at) VALUES (?, ?, ?, 'in_flight', ?) IF NOT EXISTS USING TTL ?",
  false,
);
// Takes over a lapsed claim or an expired response: every column is written again, so none keeps
// the TTL of the record it replaces.
const takeOver = statement(
  `UPDATE {ks}.idempotency_keys USING TTL ? SET fingerprint = ?, state = 'in_flight', status_code = null, content_type = null, body = null, expires_at = ? ${key} IF expires_at <= ?`,
  false,
);
const fingerprintOf = statement(`SELECT fingerprint FROM {ks}.idempotency_keys ${key}`, true);
// Every column again, with the response's TTL; fingerprint included, or it would vanish with the
// claim's shorter TTL. `IF fingerprint = ?` leaves a key that lapsed and was released meanwhile alone.
const complete = statement(
  `UPDATE {ks}.idempotency_keys USING TTL ? SET fingerprint = ?, state = 'done', status_code = ?, content_type = ?, body = ?, expires_at = ? ${key} IF fingerprint = ?`,
  true,
);
// Not idempotent: a late retry could delete the claim of the next request with this key.
const release = statement(`DELETE FROM {ks}.idempotency_keys ${key} IF state = 'in_flight'`, false);

/** A claim still taken after this many tries lost every race; something is wrong, so say so. */
const maxRounds = 4;

const toRecord = (row: types.Row): IdempotencyRecord =>
  text(row, 'state') === 'done'
    ? {
        state: 'done',
        fingerprint: text(row, 'fingerprint'),
        statusCode: int(row, 'status_code'),
        contentType: optionalText(row, 'content_type') ?? 'application/json',
        body: optionalText(row, 'body') ?? '',
      }
    : { state: 'in_flight', fingerprint: text(row, 'fingerprint') };

const later = (now: Date, seconds: number): Date => new Date(now.getTime() + seconds * 1000);
// Cassandra's TTL is whole seconds, at least 1.
const ttl = (seconds: number): number => Math.max(1, Math.ceil(seconds));

export function createCassandraIdempotencyStore(cql: Cql): IdempotencyStore {
  return {
    async claim(accountId, key, fingerprint, now, claimSeconds) {
      for (let round = 0; round < maxRounds; round++) {
        const inserted = await cql.execute(claimFree, [accountId, key, fingerprint, later(now, claimSeconds), ttl(claimSeconds)]);
        if (inserted.wasApplied()) return null;
        // A failed IF NOT EXISTS answers with the row that is there, read under Paxos.
        const held = inserted.first();
        const expiresAt: unknown = held.get('expires_at');
        if (expiresAt instanceof Date && expiresAt > now) return toRecord(held);
        const params = [ttl(claimSeconds), fingerprint, later(now, claimSeconds), accountId, key, now];
        if (await cql.applied(takeOver, params)) return null;
        // Someone else took it over first, or its TTL ran out: ask again.
      }
      throw new Error(`Expected to claim or read Idempotency-Key \`${key}\` within ${maxRounds} tries, but it kept changing`);
    },
    async complete(accountId, key, response, now, keepSeconds) {
      // Like the embedded store's UPDATE: a key no longer claimed (released, expired) stays free.
      const row = await cql.one(fingerprintOf, [accountId, key]);
      const fingerprint = row ? optionalText(row, 'fingerprint') : null;
      if (fingerprint === null) return;
      const { statusCode, contentType, body } = response;
      await cql.applied(complete, [
        ttl(keepSeconds),
        fingerprint,
        statusCode,
        contentType,
        body,
        later(now, keepSeconds),
        accountId,
        key,
        fingerprint,
      ]);
    },
    async release(accountId, key) {
      await cql.applied(release, [accountId, key]);
    },
  };
}
