import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { openEmbeddedStore } from '../../../src/adapters/embedded-store/index.js';
import { schemaDir, tempDir } from './temp-store.js';

// the compiled fixture sits beside this compiled test: dist/test/fixtures/
const writer = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'write-feed-then-wait.js');

t.test('a feed whose write was acknowledged survives kill -9 of the process', async (t) => {
  const file = join(tempDir(t), 'feedmill.db');
  const child = spawn(process.execPath, [writer, file, schemaDir, 'KILLEDKILLEDKILL'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const written = new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('written')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`writer exited with ${code} before writing: ${stderr}`)));
  });
  await written;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  t.equal(signal, 'SIGKILL', 'the writer did not get to close the database');
  t.equal(code, null);

  const store = openEmbeddedStore({ file, schemaDir });
  t.teardown(() => store.close());
  t.same(store.applied, [], 'the schema was recorded by the killed process');
  const found = await store.feeds.get('acct-1', 'KILLEDKILLEDKILL');
  t.equal(found.state, 'present');
  t.equal(found.state === 'present' && found.feed.title, 'Survives kill -9');
});
