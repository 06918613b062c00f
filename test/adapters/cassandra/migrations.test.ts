import { readdirSync } from 'node:fs';
import { Client } from 'cassandra-driver';
import t from 'tap';
import { openCassandraStore } from '../../../src/adapters/cassandra/index.js';
import { splitStatements } from '../../../src/adapters/cassandra/migrations.js';
import { historyRetentionSeconds } from '../../../src/domain/retention.js';
import { cassandraTestOptions, dropKeyspace } from '../../contract/cassandra-test-options.js';

// Each test migrates a keyspace of its own: schema changes take tens of seconds on a loaded
// machine, past tap's default of 120 s for the whole file.
t.setTimeout(600_000);

t.test('a new keyspace gets every migration, and opening it again applies none', async (t) => {
  const options = cassandraTestOptions();
  t.teardown(() => dropKeyspace(options));
  const first = await openCassandraStore(options);
  const files = readdirSync(options.schemaDir)
    .filter((name) => name.endsWith('.cql'))
    .sort();
  t.ok(files.length > 0);
  t.same(first.applied, files);
  await first.keys.insert({
    id: 'fmk_A',
    accountId: 'a',
    scopes: ['read'],
    secretHash: 'h',
    createdAt: '2024-03-01T00:00:00.000Z',
    revokedAt: null,
    lastUsedAt: null,
  });
  await first.close();

  const second = await openCassandraStore(options);
  t.teardown(() => second.close());
  t.same(second.applied, []);
  t.equal((await second.keys.get('fmk_A'))?.secretHash, 'h', 'the data survives reopening');
});

t.test('a keyspace name that is not a plain identifier is refused before anything runs', async (t) => {
  await t.rejects(
    openCassandraStore({ ...cassandraTestOptions(), keyspace: 'x; DROP KEYSPACE system' }),
    /Expected the Cassandra keyspace/,
  );
});

t.test('migration files split into statements, comments dropped', async (t) => {
  t.same(splitStatements('-- a; comment\nCREATE TABLE a (x int PRIMARY KEY);\n\nCREATE TABLE b (y int PRIMARY KEY); -- done\n'), [
    'CREATE TABLE a (x int PRIMARY KEY)',
    'CREATE TABLE b (y int PRIMARY KEY)',
  ]);
});

t.test('history tables expire rows after the retention the embedded store prunes at; the rest never', async (t) => {
  const options = cassandraTestOptions();
  t.teardown(() => dropKeyspace(options));
  await (await openCassandraStore(options)).close();
  const client = new Client({ contactPoints: options.contactPoints, localDataCenter: options.localDataCenter });
  t.teardown(() => client.shutdown());
  const rows = (
    await client.execute('SELECT table_name, default_time_to_live FROM system_schema.tables WHERE keyspace_name = ?', [options.keyspace], {
      prepare: true,
    })
  ).rows;
  const ttl = Object.fromEntries(rows.map((row) => [String(row.get('table_name')), Number(row.get('default_time_to_live'))]));
  const history = ['events', 'deliveries', 'delivery_attempts', 'delivery_attempts_by_webhook'];
  for (const table of history) t.equal(ttl[table], historyRetentionSeconds, `${table} expires with the history`);
  for (const table of ['feeds', 'webhooks', 'api_keys', 'events_unpublished', 'deliveries_pending']) {
    if (table in ttl) t.equal(ttl[table], 0, `${table} keeps its rows`);
  }
  t.ok('feeds' in ttl && 'webhooks' in ttl, 'the tables checked exist');
});
