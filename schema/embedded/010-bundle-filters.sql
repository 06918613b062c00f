-- A bundle's keep/block filters (JSON {keep, block}, in the filter language of
-- src/domain/item-filter.ts); NULL on bundles made before, meaning none.
ALTER TABLE bundles ADD COLUMN filters TEXT;
