-- feedmill embedded store (SQLite), version 2: bundles.

CREATE TABLE bundles (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL,
  name        TEXT NOT NULL,
  description TEXT NOT NULL,
  icon        TEXT NOT NULL,
  sort        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  -- a tombstone, as for feeds
  deleted_at  TEXT
) STRICT;

CREATE INDEX bundles_by_account ON bundles (account_id, deleted_at, created_at DESC, id);

-- membership, both ways: a bundle's feeds in the order they were added, and a feed's bundles
CREATE TABLE bundle_feeds (
  bundle_id TEXT NOT NULL,
  feed_id   TEXT NOT NULL,
  position  INTEGER NOT NULL,
  PRIMARY KEY (bundle_id, feed_id)
) STRICT;

CREATE INDEX bundle_feeds_by_feed ON bundle_feeds (feed_id);
