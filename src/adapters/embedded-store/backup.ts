import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';

/** What a backup carries beside the store's own tables, in a table of its own. */
export interface BackupManifest {
  /** When the copy's snapshot was taken (ISO 8601). */
  madeAt: string;
  /** The feedmill version that made it. */
  feedmillVersion: string;
  /** The store migrations the copy had applied, by number. */
  migrations: number[];
  /** Base64 of the key that seals webhook secrets and source credentials; null when left out. */
  key: string | null;
}

const manifestTable = 'feedmill_backup';
// Another process may hold the write lock for a moment; reading a snapshot waits for no longer than this.
const busyMs = 10_000;

const appliedMigrations = (db: Database.Database): number[] =>
  db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[];

/**
 * A consistent copy of the store at `source` while the service goes on writing to it. `VACUUM INTO`
 * reads one snapshot inside a single read transaction (WAL: writers are never blocked), where the
 * page-by-page backup API starts over each time another process writes, and under steady writes may
 * never finish. The copy is written beside `target` and renamed into place only once whole.
 */
export function backupEmbeddedStore(source: string, target: string, manifest: Omit<BackupManifest, 'migrations'>): BackupManifest {
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${busyMs}`);
    db.prepare('VACUUM INTO ?').run(partial);
  } finally {
    db.close();
  }
  const copy = new Database(partial);
  try {
    copy.exec(`CREATE TABLE ${manifestTable} (made_at TEXT NOT NULL, feedmill_version TEXT NOT NULL, key TEXT) STRICT`);
    copy.prepare(`INSERT INTO ${manifestTable} VALUES (?, ?, ?)`).run(manifest.madeAt, manifest.feedmillVersion, manifest.key);
    const complete = { ...manifest, migrations: appliedMigrations(copy) };
    copy.close();
    renameSync(partial, target);
    return complete;
  } catch (error) {
    copy.close();
    rmSync(partial, { force: true });
    throw error;
  }
}

/** Reads and checks a backup: SQLite's integrity check, the manifest, the migrations. Throws a sentence saying what is wrong. */
export function readBackup(file: string): BackupManifest {
  if (!existsSync(file)) throw new Error(`there is no file at ${file}`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`${file} is not a feedmill backup (${(error as Error).message})`);
  }
  try {
    const problems = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
    if (problems.length !== 1 || problems[0]?.integrity_check !== 'ok')
      throw new Error(`${file} is damaged: ${problems.map((row) => row.integrity_check).join('; ')}`);
    const hasManifest = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").pluck().get(manifestTable);
    if (!hasManifest) throw new Error(`${file} is an SQLite file but not one \`feedmill backup\` made (it has no ${manifestTable} table)`);
    const row = db.prepare(`SELECT made_at, feedmill_version, key FROM ${manifestTable}`).get() as
      { made_at: string; feedmill_version: string; key: string | null } | undefined;
    if (!row) throw new Error(`${file} has an empty ${manifestTable} table: the backup did not finish`);
    return { madeAt: row.made_at, feedmillVersion: row.feedmill_version, key: row.key, migrations: appliedMigrations(db) };
  } catch (error) {
    if (error instanceof Database.SqliteError) throw new Error(`${file} is not a feedmill backup (${error.message})`);
    throw error;
  } finally {
    db.close();
  }
}

/** The store file and the files SQLite keeps beside it in WAL mode: they belong together. */
const storeFiles = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

/**
 * Makes `target` the store in `backup` (checked with `readBackup` first). A store already at
 * `target` is renamed aside with the `aside` suffix, WAL and shared-memory files with it (a WAL
 * left behind would be replayed into the restored file), and its new name returned.
 */
export function restoreEmbeddedStore(backup: string, target: string, aside: string): string | null {
  const partial = `${target}.restoring-${process.pid}`;
  rmSync(partial, { force: true });
  const source = new Database(backup, { readonly: true, fileMustExist: true });
  try {
    source.prepare('VACUUM INTO ?').run(partial);
  } finally {
    source.close();
  }
  // The key stays in the backup only: the data directory keeps it in a file of its own (mode 0600).
  const restored = new Database(partial);
  try {
    restored.exec(`DROP TABLE ${manifestTable}`);
    restored.exec('VACUUM');
  } finally {
    restored.close();
  }
  const existing = existsSync(target) ? `${target}${aside}` : null;
  for (const file of storeFiles(target)) if (existsSync(file)) renameSync(file, file.replace(target, `${target}${aside}`));
  renameSync(partial, target);
  return existing;
}
