-- The version of each feed's items: the fencing token of a refresh (src/ports/item-store.ts,
-- commit). A refresh reads it with the items it diffs against, and stores its items and its event
-- only if it is unchanged, in one transaction. A feed with no row is at version 0.
CREATE TABLE IF NOT EXISTS item_versions (
  feed_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT;

-- A refresh no longer looks for events a crashed refresh left unpublished with their items
-- unstored: the event and its items are now written in one transaction.
DROP INDEX IF EXISTS events_unpublished_by_feed;
