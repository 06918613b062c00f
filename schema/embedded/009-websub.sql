-- feedmill embedded store (SQLite), version 9: the WebSub hub's subscriptions.

-- One row per (topic, callback) pair, by its derived id. Lease columns and distribution columns
-- are written by different statements, so a renewal never undoes a delivery attempt's record.
-- A row past expires_at is expired: reads skip it and listing an account's deletes it.
CREATE TABLE websub_subscriptions (
  id              TEXT PRIMARY KEY,
  account_id      TEXT NOT NULL,
  topic_url       TEXT NOT NULL,
  topic_id        TEXT NOT NULL,
  topic_format    TEXT NOT NULL,
  callback        TEXT NOT NULL,
  sealed_secret   TEXT,
  lease_seconds   INTEGER NOT NULL,
  expires_at      TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  pending         INTEGER NOT NULL DEFAULT 0,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT
) STRICT;

CREATE INDEX websub_subscriptions_by_account ON websub_subscriptions (account_id);
CREATE INDEX websub_subscriptions_pending ON websub_subscriptions (pending);
