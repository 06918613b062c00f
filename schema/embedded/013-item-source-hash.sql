-- feedmill embedded store (SQLite): the hash of each item's entry as the source wrote it, so a
-- newer parser reading the same entry differently re-reads it silently instead of announcing it as
-- changed (src/domain/item-diff.ts). NULL for items stored before, until their next refresh.
ALTER TABLE items ADD COLUMN source_hash TEXT;
