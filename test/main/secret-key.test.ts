import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { repoRoot } from '../fixtures/repo-root.js';

// Processes that share a data directory (an api and a worker started together, as compose.yaml's
// cluster profile runs them) must end up with one key, whichever of them makes it.
t.test('processes starting together on one data directory share the key one of them made', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-secret-key-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const module = join(repoRoot, 'dist', 'src', 'main', 'secret-key.js');
  const script = `import(${JSON.stringify(module)}).then(({ loadSecretKey }) => console.log(loadSecretKey({ dataDir: ${JSON.stringify(dataDir)} }).toString('base64')))`;
  const keys = await Promise.all(
    Array.from({ length: 8 }, async () => (await promisify(execFile)(process.execPath, ['-e', script])).stdout.trim()),
  );
  t.equal(new Set(keys).size, 1, 'one key');
  t.equal(Buffer.from(keys[0] ?? '', 'base64').length, 32);
  t.equal(statSync(join(dataDir, 'secret.key')).mode & 0o777, 0o600);
});
