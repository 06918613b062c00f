import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type Db = Database.Database;

/**
 * Opens the embedded database. WAL lets the `feedmill keys` command write while the service runs;
 * `synchronous = FULL` makes every acknowledged write survive a crash or kill -9, not only a clean exit.
 */
export function openDatabase(file: string): Db {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // Another process (the keys command) may hold the write lock for a moment.
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Applies `NNN-name.sql` files from `schemaDir` that are not yet recorded, each in a transaction.
 * Idempotent: a second run applies nothing. Returns the names it applied.
 */
export function migrate(db: Db, schemaDir: string): string[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT',
  );
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const files = readdirSync(schemaDir)
    .filter((name) => /^\d+-.+\.sql$/.test(name))
    .sort();
  const done: string[] = [];
  for (const name of files) {
    const version = Number.parseInt(name, 10);
    const sql = readFileSync(join(schemaDir, name), 'utf8');
    // IMMEDIATE takes the write lock before the check, so two processes starting together
    // cannot both apply the same file.
    db.transaction(() => {
      if (isApplied.get(version)) return;
      db.exec(sql);
      record.run(version, name, new Date().toISOString());
      done.push(name);
    }).immediate();
  }
  return done;
}
