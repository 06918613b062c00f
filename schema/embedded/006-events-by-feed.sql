-- feedmill embedded store (SQLite), version 6: a feed's unpublished events, read by a refresh
-- that finds changes, to tell which of them an event left by a crashed refresh already covers.

CREATE INDEX events_unpublished_by_feed ON events (feed_id, published_at, occurred_at);
