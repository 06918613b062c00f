import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';

/**
 * The key that seals webhook secrets: `FEEDMILL_SECRET_KEY`, or one made once in the data
 * directory (mode 0600) and reused, so embedded mode needs no setup and survives restarts, and
 * processes that share the directory share the key.
 */
/** Where a data directory keeps the key when `FEEDMILL_SECRET_KEY` does not give it. */
export const secretKeyFile = (dataDir: string): string => join(dataDir, 'secret.key');

export function loadSecretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return config.secretKey;
  const file = secretKeyFile(config.dataDir);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Two processes sharing the directory (an api and a worker started together) both found no
    // key: the one that wrote first made it, and the other uses that one.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
  return key;
}
