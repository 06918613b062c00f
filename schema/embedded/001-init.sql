-- feedmill embedded store (SQLite), version 1.
-- Rows hold their variable parts as JSON so that adding a field needs no migration; the columns are
-- the ones queries filter or sort on.

CREATE TABLE feeds (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL,
  title       TEXT NOT NULL,
  description TEXT NOT NULL,
  icon        TEXT NOT NULL,
  source_url  TEXT NOT NULL,
  fetch_url   TEXT NOT NULL,
  link        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  -- a tombstone: a deleted feed keeps its row so a second DELETE can say "already deleted"
  deleted_at  TEXT,
  settings    TEXT NOT NULL,
  fetch_state TEXT NOT NULL
) STRICT;

-- list by account, newest first
CREATE INDEX feeds_by_account ON feeds (account_id, deleted_at, created_at DESC, id);

CREATE TABLE items (
  feed_id      TEXT NOT NULL,
  key          TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  added_at     TEXT NOT NULL,
  -- position in the document that brought the item: keeps document order among items added together
  position     INTEGER NOT NULL,
  published_at TEXT NOT NULL,
  data         TEXT NOT NULL,
  PRIMARY KEY (feed_id, key)
) STRICT;

CREATE INDEX items_by_added ON items (feed_id, added_at DESC, position);
CREATE INDEX items_by_date ON items (feed_id, published_at DESC, position);

CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL,
  scopes      TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
) STRICT;
