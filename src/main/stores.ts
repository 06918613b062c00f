import { join } from 'node:path';
import { openEmbeddedStore, type EmbeddedStore } from '../adapters/embedded-store/index.js';
import type { Config } from './config.js';
import { rootDir } from './version.js';

/** Opens the configured store; opening applies pending migrations (`feedmill migrate` does only this). */
export function openStores(config: Pick<Config, 'dataDir' | 'store'>): EmbeddedStore {
  return openEmbeddedStore({ file: join(config.dataDir, 'feedmill.sqlite'), schemaDir: join(rootDir, 'schema', 'embedded') });
}
