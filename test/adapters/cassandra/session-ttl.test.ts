import { Client, type types } from 'cassandra-driver';
import t from 'tap';
import { openCassandraStore } from '../../../src/adapters/cassandra/index.js';
import { cassandraTestOptions, dropKeyspace } from '../../contract/cassandra-test-options.js';

// Migrating a keyspace takes tens of seconds on a loaded machine.
t.setTimeout(600_000);

t.test('a session is written with a TTL that ends it at its absolute end, and a touch keeps that end', async (t) => {
  const options = cassandraTestOptions();
  t.teardown(() => dropKeyspace(options));
  const store = await openCassandraStore(options);
  t.teardown(() => store.close());
  const client = new Client({ contactPoints: options.contactPoints, localDataCenter: options.localDataCenter });
  t.teardown(() => client.shutdown());
  const ttls = async (id: string): Promise<{ email: number | null; seen: number | null } | undefined> => {
    const row = (
      await client.execute(`SELECT TTL(email) AS email, TTL(last_seen_at) AS seen FROM ${options.keyspace}.sessions WHERE id = ?`, [id], {
        prepare: true,
      })
    ).first() as types.Row | null;
    return row ? { email: row.get('email') as number | null, seen: row.get('seen') as number | null } : undefined;
  };
  const session = {
    id: 'sess-1',
    email: 'a@example.org',
    accountId: 'acme',
    createdAt: '2026-11-25T10:00:00.000Z',
    lastSeenAt: '2026-11-25T10:00:00.000Z',
  };
  await store.sessions.insert(session, new Date(Date.now() + 1_000_000).toISOString());
  const written = await ttls('sess-1');
  t.ok(written?.email && written.email > 0 && written.email <= 1_000, `the row's TTL is the seconds until its end (${written?.email})`);
  await store.sessions.touch('sess-1', '2026-11-25T10:05:00.000Z');
  const touched = await ttls('sess-1');
  t.ok(touched?.seen && touched.seen > 0 && touched.seen <= 1_000, `the touched cell expires with the row, not never (${touched?.seen})`);
  t.equal((await store.sessions.get('sess-1'))?.lastSeenAt, '2026-11-25T10:05:00.000Z');

  await store.sessions.insert({ ...session, id: 'sess-over' }, new Date(Date.now() - 1_000).toISOString());
  t.equal(await store.sessions.get('sess-over'), undefined, 'a session already past its end is not stored');
});
