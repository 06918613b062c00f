import { join } from 'node:path';
import t from 'tap';
import { openEmbeddedStore } from '../../../src/adapters/embedded-store/index.js';
import { schemaDir, tempDir } from './temp-store.js';

t.test('sessions past their absolute end are pruned; live ones stay', async (t) => {
  const file = join(tempDir(t), 'feedmill.db');
  const first = openEmbeddedStore({ file, schemaDir });
  const session = {
    email: 'a@example.org',
    accountId: 'acme',
    createdAt: '2026-11-25T10:00:00.000Z',
    lastSeenAt: '2026-11-25T10:00:00.000Z',
  };
  await first.sessions.insert({ ...session, id: 'over' }, new Date(Date.now() - 1_000).toISOString());
  await first.sessions.insert({ ...session, id: 'live' }, new Date(Date.now() + 3_600_000).toISOString());
  first.close();
  // Opening prunes at once, then hourly.
  const second = openEmbeddedStore({ file, schemaDir });
  t.teardown(() => second.close());
  t.equal(await second.sessions.get('over'), undefined);
  t.equal((await second.sessions.get('live'))?.id, 'live');
});
