-- feedmill embedded store (SQLite), version 5: webhooks, deliveries and their call history.

CREATE TABLE webhooks (
  id         TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  enabled    INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  -- the whole webhook (scope, filters, sealed secrets, state) as JSON
  data       TEXT NOT NULL
) STRICT;

CREATE INDEX webhooks_by_account ON webhooks (account_id, created_at DESC, id);

CREATE TABLE deliveries (
  id              TEXT PRIMARY KEY,
  webhook_id      TEXT NOT NULL,
  account_id      TEXT NOT NULL,
  event_id        TEXT NOT NULL,
  body            TEXT NOT NULL,
  status          TEXT NOT NULL,
  attempts        INTEGER NOT NULL,
  created_at      TEXT NOT NULL,
  next_attempt_at TEXT
) STRICT;

CREATE INDEX deliveries_pending ON deliveries (status);

CREATE TABLE delivery_attempts (
  delivery_id      TEXT NOT NULL,
  webhook_id       TEXT NOT NULL,
  event_id         TEXT NOT NULL,
  attempt          INTEGER NOT NULL,
  at               TEXT NOT NULL,
  status_code      INTEGER,
  latency_ms       INTEGER NOT NULL,
  error            TEXT,
  response_excerpt TEXT NOT NULL,
  outcome          TEXT NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
) STRICT;

CREATE INDEX delivery_attempts_by_webhook ON delivery_attempts (webhook_id, at DESC);
