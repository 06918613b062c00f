-- feedmill embedded store (SQLite), version 3: Idempotency-Key records.

CREATE TABLE idempotency_keys (
  account_id   TEXT NOT NULL,
  key          TEXT NOT NULL,
  fingerprint  TEXT NOT NULL,
  -- 'in_flight' while the first request runs, then 'done' with the response to replay
  state        TEXT NOT NULL,
  status_code  INTEGER,
  content_type TEXT,
  body         TEXT,
  expires_at   TEXT NOT NULL,
  PRIMARY KEY (account_id, key)
) STRICT;

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
