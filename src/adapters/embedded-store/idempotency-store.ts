import type { IdempotencyRecord, IdempotencyStore } from '../../ports/idempotency-store.js';
import type { Db } from './database.js';

interface Row {
  fingerprint: string;
  state: string;
  status_code: number | null;
  content_type: string | null;
  body: string | null;
  expires_at: string;
}

const toRecord = (row: Row): IdempotencyRecord =>
  row.state === 'done'
    ? {
        state: 'done',
        fingerprint: row.fingerprint,
        statusCode: row.status_code ?? 200,
        contentType: row.content_type ?? 'application/json',
        body: row.body ?? '',
      }
    : { state: 'in_flight', fingerprint: row.fingerprint };

const later = (now: Date, seconds: number): string => new Date(now.getTime() + seconds * 1000).toISOString();

export function createEmbeddedIdempotencyStore(db: Db): IdempotencyStore {
  const find = db.prepare<[string, string], Row>('SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?');
  const claim = db.prepare(
    `INSERT INTO idempotency_keys (account_id, key, fingerprint, state, expires_at) VALUES (?, ?, ?, 'in_flight', ?)
     ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_flight',
       status_code = NULL, content_type = NULL, body = NULL, expires_at = excluded.expires_at`,
  );
  const complete = db.prepare(
    `UPDATE idempotency_keys SET state = 'done', status_code = ?, content_type = ?, body = ?, expires_at = ? WHERE account_id = ? AND key = ?`,
  );
  const release = db.prepare("DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND state = 'in_flight'");
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE expires_at < ?');
  let claims = 0;
  // IMMEDIATE: two requests with the same key cannot both see "free" and both claim it.
  const claimOnce = db.transaction((accountId: string, key: string, fingerprint: string, now: Date, claimSeconds: number) => {
    const row = find.get(accountId, key);
    if (row && row.expires_at > now.toISOString()) return toRecord(row);
    claim.run(accountId, key, fingerprint, later(now, claimSeconds));
    return null;
  });
  return {
    async claim(accountId, key, fingerprint, now, claimSeconds) {
      if (++claims % 500 === 0) purge.run(now.toISOString());
      return claimOnce.immediate(accountId, key, fingerprint, now, claimSeconds);
    },
    async complete(accountId, key, response, now, keepSeconds) {
      complete.run(response.statusCode, response.contentType, response.body, later(now, keepSeconds), accountId, key);
    },
    async release(accountId, key) {
      release.run(accountId, key);
    },
  };
}
