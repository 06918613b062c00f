import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { openEmbeddedStore } from '../../../src/adapters/embedded-store/index.js';
import { feedFixture, schemaDir, tempDir } from './temp-store.js';

t.test('a new store applies every schema file, and opening it again applies none', async (t) => {
  const file = join(tempDir(t), 'nested', 'dir', 'feedmill.db');
  const first = openEmbeddedStore({ file, schemaDir });
  const files = readdirSync(schemaDir)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  t.ok(files.length > 0);
  t.same(first.applied, files);
  await first.feeds.insert(feedFixture());
  first.close();

  const second = openEmbeddedStore({ file, schemaDir });
  t.teardown(() => second.close());
  t.same(second.applied, []);
  t.equal((await second.feeds.getById('AAAAAAAAAAAAAAAA'))?.title, 'Example', 'the data survives reopening');
});

t.test('two stores open on one file at once both work', async (t) => {
  // the `feedmill keys` command writes while the service runs
  const file = join(tempDir(t), 'feedmill.db');
  const service = openEmbeddedStore({ file, schemaDir });
  t.teardown(() => service.close());
  const command = openEmbeddedStore({ file, schemaDir });
  t.teardown(() => command.close());
  t.same(command.applied, []);
  await command.keys.insert({
    id: 'fmk_AAAAAAAAAAAAAAAA',
    accountId: 'a',
    scopes: ['read'],
    secretHash: 'h',
    createdAt: '2024-03-01T00:00:00.000Z',
    revokedAt: null,
    lastUsedAt: null,
  });
  t.equal((await service.keys.get('fmk_AAAAAAAAAAAAAAAA'))?.accountId, 'a');
});
