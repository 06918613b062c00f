import { randomBytes } from 'node:crypto';
import type { Test } from 'tap';
import type { BundleStore } from '../../src/ports/bundle-store.js';
import type { DeliveryStore } from '../../src/ports/delivery-store.js';
import type { EventOutbox } from '../../src/ports/event-outbox.js';
import type { FeedStore } from '../../src/ports/feed-store.js';
import type { IdempotencyStore } from '../../src/ports/idempotency-store.js';
import type { ItemStore } from '../../src/ports/item-store.js';
import type { KeyStore } from '../../src/ports/key-store.js';
import type { SessionStore } from '../../src/ports/session-store.js';
import type { UserStore } from '../../src/ports/user-store.js';
import type { WebhookStore } from '../../src/ports/webhook-store.js';
import type { WebsubStore } from '../../src/ports/websub-store.js';
import { bundleStoreContract } from './store-bundles.js';
import { deliveryStoreContract } from './store-deliveries.js';
import { feedStoreContract } from './store-feeds.js';
import { idempotencyStoreContract } from './store-idempotency.js';
import { itemStoreContract } from './store-items.js';
import { keyStoreContract } from './store-keys.js';
import { eventOutboxContract } from './store-outbox.js';
import { sessionStoreContract, userStoreContract } from './store-users.js';
import { webhookStoreContract } from './store-webhooks.js';
import { websubStoreContract } from './store-websub.js';

/** The store ports one adapter provides. `bundles` is optional while an adapter grows into it. */
export interface StoreUnderTest {
  feeds: FeedStore;
  items: ItemStore;
  keys: KeyStore;
  bundles?: BundleStore;
  idempotency: IdempotencyStore;
  outbox: EventOutbox;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  users: UserStore;
  sessions: SessionStore;
  websub: WebsubStore;
  close(): void | Promise<void>;
}

/**
 * What every subtest gets: the store, and a namespace that makes its ids and accounts its own.
 * One store serves the whole suite (a Cassandra keyspace costs seconds to migrate), so tests
 * never assume an empty store: lists that span accounts (keys, due feeds, unpublished events,
 * pending deliveries) are filtered to `ns`.
 */
export interface ContractContext {
  store: StoreUnderTest;
  ns: (name: string) => string;
}

export type ContractTest = (name: string, body: (t: Test, ctx: ContractContext) => Promise<void>) => void;

/**
 * The store conformance suite (STYLE.md habit 4): the same assertions for every adapter. The
 * embedded store is the reference behaviour; each adapter's test file calls this with its `open`.
 */
export function storeContract(t: Test, name: string, open: () => Promise<StoreUnderTest>): void {
  const run = randomBytes(4).toString('hex');
  let count = 0;
  let store: StoreUnderTest | undefined;

  t.before(async () => {
    store = await open();
  });
  t.teardown(async () => {
    await store?.close();
  });

  const test: ContractTest = (title, body) => {
    t.test(`${name}: ${title}`, async (t) => {
      if (!store) throw new Error(`the ${name} store did not open`);
      const prefix = `${run}-${++count}`;
      await body(t, { store, ns: (part) => `${prefix}-${part}` });
    });
  };

  feedStoreContract(test);
  itemStoreContract(test);
  keyStoreContract(test);
  bundleStoreContract(test);
  idempotencyStoreContract(test);
  eventOutboxContract(test);
  webhookStoreContract(test);
  deliveryStoreContract(test);
  userStoreContract(test);
  sessionStoreContract(test);
  websubStoreContract(test);
}
