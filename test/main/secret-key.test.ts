import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { loadSecretKey } from '../../src/main/secret-key.js';
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
  t.same(readdirSync(dataDir), ['secret.key'], 'no draft of a key left behind');
});

// A key file that was cut short (a disk filled up, a copy that failed) must stop the process with
// the file's name, not start it with a short key that seals nothing anyone can open again.
t.test('a key file that holds no 32-byte key is refused, naming the file', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-secret-key-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  for (const content of ['', 'c2hvcnQ=\n']) {
    writeFileSync(join(dataDir, 'secret.key'), content);
    t.throws(() => loadSecretKey({ secretKey: undefined, dataDir }), {
      message: new RegExp(`${join(dataDir, 'secret.key')}.*restore the file from a backup`),
    });
  }
  t.end();
});
