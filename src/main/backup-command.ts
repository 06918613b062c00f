import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupEmbeddedStore, readBackup, restoreEmbeddedStore } from '../adapters/embedded-store/backup.js';
import type { Config } from './config.js';
import { ExitError } from './exit-error.js';
import { runningPid } from './running-marker.js';
import { loadSecretKey, secretKeyFile } from './secret-key.js';
import { embeddedSchemaDir, embeddedStoreFile } from './stores.js';
import { version } from './version.js';

export const backupUsage = 'usage: feedmill backup FILE [--without-key] | feedmill restore FILE';

type BackupConfig = Pick<Config, 'store' | 'dataDir' | 'secretKey'>;

const cassandraNote =
  'FEEDMILL_STORE=cassandra keeps its data in Cassandra: back it up with `nodetool snapshot` on each node (docs/operating.md, "Backups"); `feedmill backup` copies the embedded store only';

const oneFile = (
  args: string[],
  command: string,
  options: { 'without-key'?: { type: 'boolean' } },
): { file: string; withoutKey: boolean } => {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  } catch (error) {
    throw new ExitError(`${(error as Error).message}; ${backupUsage}`, 2);
  }
  const [file, ...extra] = parsed.positionals;
  if (parsed.values.help === true || file === undefined || extra.length > 0)
    throw new ExitError(`\`feedmill ${command}\` takes one file; ${backupUsage}`, 2);
  return { file: resolve(file), withoutKey: 'without-key' in parsed.values && parsed.values['without-key'] === true };
};

const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * `feedmill backup FILE`: a consistent copy of the embedded store taken while the service runs,
 * with the key that seals webhook secrets and source credentials (unless `--without-key`), written
 * with mode 0600 since it holds that key and every account's data.
 */
export function backupCommand(args: string[], config: BackupConfig, print: (line: string) => void): void {
  const { file, withoutKey } = oneFile(args, 'backup', { 'without-key': { type: 'boolean' } });
  if (config.store !== 'embedded') throw new Error(cassandraNote);
  const source = embeddedStoreFile(config.dataDir);
  if (!existsSync(source)) throw new Error(`there is no embedded store at ${source}: is FEEDMILL_DATA_DIR (${config.dataDir}) right?`);
  // Every file this command makes is the owner's alone, from its first byte.
  process.umask(0o077);
  const manifest = backupEmbeddedStore(source, file, {
    madeAt: new Date().toISOString(),
    feedmillVersion: version,
    key: withoutKey ? null : loadSecretKey(config).toString('base64'),
  });
  const size = readFileSync(file).byteLength;
  print(`Backed up ${source} to ${file} (${megabytes(size)}, ${manifest.migrations.length} migrations, taken at ${manifest.madeAt}).`);
  print(
    withoutKey
      ? 'The key that seals webhook secrets and source credentials is NOT in it: keep it apart (FEEDMILL_SECRET_KEY or secret.key in the data directory), or a restore cannot sign webhooks or send stored credentials.'
      : 'It holds the key that seals webhook secrets and source credentials: keep it as private as the data directory.',
  );
}

/**
 * `feedmill restore FILE`: checks the copy, refuses while a service runs on the data directory,
 * sets any store already there aside (never deletes it), and puts the copy and its key in place.
 * The next start applies the migrations this release has and the copy lacks.
 */
export function restoreCommand(args: string[], config: BackupConfig, print: (line: string) => void): void {
  const { file } = oneFile(args, 'restore', {});
  if (config.store !== 'embedded') throw new Error(cassandraNote);
  const running = runningPid(config.dataDir);
  if (running !== undefined)
    throw new Error(
      `feedmill (pid ${running}) is running on ${config.dataDir}: stop it before restoring, or restore into another FEEDMILL_DATA_DIR`,
    );
  const manifest = readBackup(file);
  const known = new Set(readdirSync(embeddedSchemaDir).map((name) => Number.parseInt(name, 10)));
  const unknown = manifest.migrations.filter((number) => !known.has(number));
  if (unknown.length > 0)
    throw new Error(
      `${file} was made by feedmill ${manifest.feedmillVersion}, whose store has migrations this release (${version}) does not know (${unknown.join(', ')}): restore it with that release or a newer one`,
    );
  mkdirSync(config.dataDir, { recursive: true });
  process.umask(0o077);
  const stamp = `.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const target = embeddedStoreFile(config.dataDir);
  const setAside = restoreEmbeddedStore(file, target, stamp);
  print(`Restored ${file} (taken at ${manifest.madeAt} by feedmill ${manifest.feedmillVersion}) into ${target}.`);
  if (setAside) print(`The store that was there is kept as ${setAside}.`);
  print(restoreKey(manifest.key, config, stamp));
}

/** Puts the backup's key where the service reads it, and says what a restore without the right key loses. */
function restoreKey(key: string | null, config: BackupConfig, stamp: string): string {
  const lost =
    'webhooks keep their addresses but cannot sign (give each a new secret with PATCH /v1/webhooks/:id), and sources lose their stored credentials (set them again)';
  if (key === null) return `The backup holds no key: start with the original key (FEEDMILL_SECRET_KEY or its secret.key), or ${lost}.`;
  if (config.secretKey) {
    return config.secretKey.toString('base64') === key
      ? 'FEEDMILL_SECRET_KEY is the key the backup was made with.'
      : `FEEDMILL_SECRET_KEY differs from the key in the backup: set it to the backup's key, or ${lost}.`;
  }
  const file = secretKeyFile(config.dataDir);
  if (existsSync(file) && readFileSync(file, 'utf8').trim() !== key) renameSync(file, `${file}${stamp}`);
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return `The key that seals webhook secrets and source credentials is in ${file}.`;
}
