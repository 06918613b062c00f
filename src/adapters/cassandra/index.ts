import { auth, Client, types } from 'cassandra-driver';
import type { BundleStore } from '../../ports/bundle-store.js';
import type { DeliveryStore } from '../../ports/delivery-store.js';
import type { EventOutbox } from '../../ports/event-outbox.js';
import type { FeedStore } from '../../ports/feed-store.js';
import type { IdempotencyStore } from '../../ports/idempotency-store.js';
import type { ItemStore } from '../../ports/item-store.js';
import type { KeyStore } from '../../ports/key-store.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { UserStore } from '../../ports/user-store.js';
import type { WebhookStore } from '../../ports/webhook-store.js';
import type { WebsubStore } from '../../ports/websub-store.js';
import { createCassandraBundleStore } from './bundle-store.js';
import { createCql } from './cql.js';
import { createCassandraDeliveryStore } from './delivery-store.js';
import { createCassandraEventOutbox } from './event-outbox.js';
import { createCassandraFeedStore } from './feed-store.js';
import { createCassandraIdempotencyStore } from './idempotency-store.js';
import { createCassandraItemStore } from './item-store.js';
import { createCassandraKeyStore } from './key-store.js';
import { applyMigrations, createKeyspace } from './migrations.js';
import { checkKeyspace, type CassandraStoreOptions } from './options.js';
import { createCassandraSessionStore } from './session-store.js';
import { createCassandraUserStore } from './user-store.js';
import { createCassandraWebhookStore } from './webhook-store.js';
import { createCassandraWebsubStore } from './websub-store.js';

export { consistencyFromName, type CassandraStoreOptions, type Consistency } from './options.js';

export interface CassandraStore {
  feeds: FeedStore;
  items: ItemStore;
  keys: KeyStore;
  bundles: BundleStore;
  idempotency: IdempotencyStore;
  outbox: EventOutbox;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  users: UserStore;
  sessions: SessionStore;
  websub: WebsubStore;
  /** The migrations this open applied (opening applies every pending one). */
  applied: string[];
  /** Closes every connection; call it after the last query (STYLE.md habit 14). */
  close(): Promise<void>;
}

/**
 * The store ports on Apache Cassandra: creates the keyspace when missing, applies pending
 * migrations from `schemaDir`, and connects with `consistency` (LOCAL_QUORUM by default).
 */
export async function openCassandraStore(options: CassandraStoreOptions): Promise<CassandraStore> {
  const keyspace = checkKeyspace(options.keyspace);
  const connection = {
    contactPoints: options.contactPoints,
    localDataCenter: options.localDataCenter,
    ...(options.credentials
      ? { authProvider: new auth.PlainTextAuthProvider(options.credentials.username, options.credentials.password) }
      : {}),
  };
  // The keyspace must exist before a client can use it: a short-lived client creates it.
  const admin = new Client(connection);
  try {
    await createKeyspace(admin, keyspace, options.replication);
  } finally {
    await admin.shutdown();
  }
  const client = new Client({
    ...connection,
    keyspace,
    queryOptions: {
      consistency: types.consistencies[options.consistency ?? 'localQuorum'],
      serialConsistency: types.consistencies[options.serialConsistency ?? 'localSerial'],
    },
  });
  try {
    const applied = await applyMigrations(client, keyspace, options.schemaDir);
    const cql = createCql(client, keyspace);
    const outbox = createCassandraEventOutbox(cql);
    return {
      applied,
      feeds: createCassandraFeedStore(cql),
      items: createCassandraItemStore(cql, outbox),
      keys: createCassandraKeyStore(cql),
      bundles: createCassandraBundleStore(cql),
      idempotency: createCassandraIdempotencyStore(cql),
      outbox,
      webhooks: createCassandraWebhookStore(cql),
      deliveries: createCassandraDeliveryStore(cql),
      users: createCassandraUserStore(cql),
      sessions: createCassandraSessionStore(cql),
      websub: createCassandraWebsubStore(cql),
      close: () => client.shutdown(),
    };
  } catch (error) {
    await client.shutdown();
    throw error;
  }
}
