-- feedmill embedded store (SQLite), version 4: the event outbox.

CREATE TABLE events (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL,
  feed_id      TEXT NOT NULL,
  occurred_at  TEXT NOT NULL,
  envelope     TEXT NOT NULL,
  published_at TEXT
) STRICT;

CREATE INDEX events_unpublished ON events (published_at, occurred_at);
