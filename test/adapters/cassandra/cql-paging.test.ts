import { Client } from 'cassandra-driver';
import t from 'tap';
import { createCql, statement } from '../../../src/adapters/cassandra/cql.js';
import { cassandraTestOptions, dropKeyspace } from '../../contract/cassandra-test-options.js';

// `all` and `pages` are the two ways the stores read more rows than one page holds, and `all` is
// `pages` gathered: one paging rule. A partition larger than the driver's 5,000-row page must come
// back whole from `all`, and in pages of the size asked from `pages`, nothing lost or repeated.
t.setTimeout(300_000);

const rowCount = 5_100;

t.test('every row of a partition larger than a page, through all and through pages', async (t) => {
  const options = cassandraTestOptions();
  const client = new Client({ contactPoints: options.contactPoints, localDataCenter: options.localDataCenter });
  t.teardown(async () => {
    await client.shutdown();
    await dropKeyspace(options);
  });
  const ddl = { readTimeout: 120_000 };
  await client.execute(
    `CREATE KEYSPACE ${options.keyspace} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
    [],
    ddl,
  );
  await client.execute(`CREATE TABLE ${options.keyspace}.numbers (part int, n int, PRIMARY KEY (part, n))`, [], ddl);
  const cql = createCql(client, options.keyspace);
  const insert = statement('INSERT INTO {ks}.numbers (part, n) VALUES (?, ?)', true);
  for (let from = 0; from < rowCount; from += 100)
    await cql.batch(Array.from({ length: 100 }, (_, i) => ({ statement: insert, params: [1, from + i] })));
  const select = statement('SELECT n FROM {ks}.numbers WHERE part = ?', true);
  const expected = Array.from({ length: rowCount }, (_, i) => i);

  const all = await cql.all(select, [1]);
  t.same(
    all.map((row) => row.get('n') as number),
    expected,
    `all: the ${rowCount} rows in order, past the first page`,
  );

  const sizes: number[] = [];
  const paged: number[] = [];
  for await (const page of cql.pages(select, [1], 1_000)) {
    sizes.push(page.length);
    for (const row of page) paged.push(row.get('n') as number);
  }
  t.same(sizes, [1_000, 1_000, 1_000, 1_000, 1_000, 100], 'pages: of the size asked, the rest last');
  t.same(paged, expected, 'pages: every row once, in order');
});
