-- feedmill embedded store (SQLite), version 9: an account's events in order, read by the event
-- stream (`GET /v1/events`, GraphQL `feedUpdate(since:)`) to replay what a client missed.
CREATE INDEX events_by_account ON events (account_id, occurred_at, id);
