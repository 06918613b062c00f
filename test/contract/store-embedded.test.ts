import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openEmbeddedStore } from '../../src/adapters/embedded-store/index.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { storeContract } from './store.js';

// The reference adapter: a fresh SQLite file, removed when the suite ends.
storeContract(t, 'embedded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-contract-'));
  const store = openEmbeddedStore({ file: join(dir, 'feedmill.db'), schemaDir: join(repoRoot, 'schema', 'embedded') });
  return {
    ...store,
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
