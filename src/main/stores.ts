import { join } from 'node:path';
import { openEmbeddedStore } from '../adapters/embedded-store/index.js';
import type { AppDeps } from '../app/deps.js';
import type { Config } from './config.js';
import { rootDir } from './version.js';

/** Every store port of one engine, and the migrations opening it applied. */
export type Stores = Pick<
  AppDeps,
  'feeds' | 'items' | 'keys' | 'bundles' | 'idempotency' | 'outbox' | 'webhooks' | 'deliveries' | 'users' | 'sessions' | 'websub'
> & {
  applied: string[];
  close(): Promise<void>;
};

type StoreConfig = Pick<
  Config,
  | 'store'
  | 'dataDir'
  | 'cassandraContactPoints'
  | 'cassandraLocalDataCenter'
  | 'cassandraKeyspace'
  | 'cassandraUsername'
  | 'cassandraPassword'
  | 'cassandraConsistency'
>;

/** The embedded store's file in a data directory. */
export const embeddedStoreFile = (dataDir: string): string => join(dataDir, 'feedmill.sqlite');
/** The embedded store's migrations, by number (`001-init.sql`). */
export const embeddedSchemaDir = join(rootDir, 'schema', 'embedded');

/** Opens the configured store; opening applies pending migrations (`feedmill migrate` does only this). */
export async function openStores(config: StoreConfig): Promise<Stores> {
  if (config.store === 'cassandra') {
    // cassandra-driver loads only for this store: the embedded process does not carry it.
    const { consistencyFromName, openCassandraStore } = await import('../adapters/cassandra/index.js');
    const { cassandraUsername: username, cassandraPassword: password } = config;
    return openCassandraStore({
      contactPoints: config.cassandraContactPoints,
      localDataCenter: config.cassandraLocalDataCenter,
      keyspace: config.cassandraKeyspace,
      consistency: consistencyFromName(config.cassandraConsistency),
      ...(username !== undefined && password !== undefined ? { credentials: { username, password } } : {}),
      schemaDir: join(rootDir, 'schema', 'cql'),
    });
  }
  const embedded = openEmbeddedStore({ file: embeddedStoreFile(config.dataDir), schemaDir: embeddedSchemaDir });
  return { ...embedded, close: async () => embedded.close() };
}
