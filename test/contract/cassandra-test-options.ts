import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'cassandra-driver';
import type { CassandraStoreOptions } from '../../src/adapters/cassandra/index.js';
import { repoRoot } from '../fixtures/repo-root.js';

/**
 * Options for a keyspace of its own (`feedmill_test_…`), on the server scripts/test.sh started or
 * found. No server configured is a failure, never a skip: the adapter is tested against a real one.
 */
export function cassandraTestOptions(): CassandraStoreOptions {
  const contactPoints = (process.env['FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS'] ?? '')
    .split(',')
    .map((point) => point.trim())
    .filter(Boolean);
  if (contactPoints.length === 0) {
    throw new Error(
      'Expected FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS (e.g. 127.0.0.1:9042) to name a Cassandra server; run the tests with `npm test`, which starts one',
    );
  }
  return {
    contactPoints,
    localDataCenter: process.env['FEEDMILL_TEST_CASSANDRA_DATACENTER'] ?? 'datacenter1',
    keyspace: `feedmill_test_${randomBytes(6).toString('hex')}`,
    schemaDir: join(repoRoot, 'schema', 'cql'),
  };
}

/** Drops a test keyspace, so test runs leave the development server as they found it. */
export async function dropKeyspace(options: CassandraStoreOptions): Promise<void> {
  const client = new Client({ contactPoints: options.contactPoints, localDataCenter: options.localDataCenter });
  try {
    // Dropping waits for every node to flush and agree; on a loaded machine that outlasts the
    // driver's 12 s default.
    await client.execute(`DROP KEYSPACE IF EXISTS ${options.keyspace}`, [], { readTimeout: 120_000 });
  } finally {
    await client.shutdown();
  }
}
