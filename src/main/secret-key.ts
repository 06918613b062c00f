import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

/** Bytes of the key, as `FEEDMILL_SECRET_KEY` gives it too. */
const keyBytes = 32;

/** Where a data directory keeps the key when `FEEDMILL_SECRET_KEY` does not give it. */
export const secretKeyFile = (dataDir: string): string => join(dataDir, 'secret.key');

/**
 * The key that seals webhook secrets: `FEEDMILL_SECRET_KEY`, or one made once in the data
 * directory (mode 0600) and reused, so embedded mode needs no setup and survives restarts, and
 * processes that share the directory share the key.
 */
export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = secretKeyFile(config.dataDir);
  if (!existsSync(file)) makeKeyFile(config.dataDir, file);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== keyBytes) {
    throw new Error(
      `Expected base64 of ${keyBytes} bytes in ${file}, got ${key.length} bytes; restore the file from a backup, or set FEEDMILL_SECRET_KEY to the key it held (deleting it makes a new key, and what the old one sealed cannot be read again)`,
    );
  }
  return key;
}

/**
 * Writes a new key whole under a name of this process's own, then links it into place. Processes
 * sharing the directory (an api and a worker started together) may all find no key: the link of
 * the first wins, the others' fail with EEXIST, and all read the one that won. Creating the file
 * in place with `wx` left a moment when it existed empty, and a process reading it then started
 * with an empty key (seen in CI: 8 processes, 2 keys).
 */
function makeKeyFile(dataDir: string, file: string): void {
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  try {
    writeFileSync(draft, `${randomBytes(keyBytes).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}
