-- People who sign in to the dashboard, their sessions, and when each API key was last used.

-- By lower-cased email, the user's identity. sessions_valid_after ends every older session in one
-- write ("sign out everywhere", a password reset).
CREATE TABLE IF NOT EXISTS users (
  email                TEXT PRIMARY KEY,
  account_id           TEXT NOT NULL,
  password_hash        TEXT NOT NULL,
  created_at           TEXT NOT NULL,
  sessions_valid_after TEXT
) STRICT;

-- id: sha-256 of the cookie's token, never the token. expires_at: the absolute end, after which
-- the hourly prune deletes the row.
CREATE TABLE IF NOT EXISTS sessions (
  id           TEXT PRIMARY KEY,
  email        TEXT NOT NULL,
  account_id   TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at   TEXT NOT NULL
) STRICT;

CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at);
-- deleting a user deletes their sessions
CREATE INDEX IF NOT EXISTS sessions_by_email ON sessions (email);

ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
