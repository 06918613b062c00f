import { historyRetentionSeconds } from '../../domain/retention.js';
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
import { createEmbeddedBundleStore } from './bundle-store.js';
import { migrate, openDatabase } from './database.js';
import { createEmbeddedDeliveryStore } from './delivery-store.js';
import { createEmbeddedEventOutbox, eventRecorder } from './event-outbox.js';
import { createEmbeddedFeedStore } from './feed-store.js';
import { createEmbeddedIdempotencyStore } from './idempotency-store.js';
import { createEmbeddedItemStore } from './item-store.js';
import { createEmbeddedKeyStore } from './key-store.js';
import { pruneHistory } from './prune-history.js';
import { createEmbeddedSessionStore, pruneSessions } from './session-store.js';
import { createEmbeddedUserStore } from './user-store.js';
import { createEmbeddedWebhookStore } from './webhook-store.js';
import { createEmbeddedWebsubStore } from './websub-store.js';

export interface EmbeddedStore {
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
  close(): void;
}

/** The durable single-file store behind every store port (SQLite through better-sqlite3). */
export function openEmbeddedStore(options: { file: string; schemaDir: string }): EmbeddedStore {
  const db = openDatabase(options.file);
  const applied = migrate(db, options.schemaDir);
  // Hourly, and not kept alive for it: a process that is ending does not wait for the next prune.
  const prune = (): void => {
    pruneHistory(db, new Date(Date.now() - historyRetentionSeconds * 1000));
    pruneSessions(db, new Date());
  };
  prune();
  const pruning = setInterval(prune, 3_600_000).unref();
  return {
    applied,
    feeds: createEmbeddedFeedStore(db),
    items: createEmbeddedItemStore(db, eventRecorder(db)),
    keys: createEmbeddedKeyStore(db),
    bundles: createEmbeddedBundleStore(db),
    idempotency: createEmbeddedIdempotencyStore(db),
    outbox: createEmbeddedEventOutbox(db),
    webhooks: createEmbeddedWebhookStore(db),
    deliveries: createEmbeddedDeliveryStore(db),
    users: createEmbeddedUserStore(db),
    sessions: createEmbeddedSessionStore(db),
    websub: createEmbeddedWebsubStore(db),
    close: () => {
      clearInterval(pruning);
      db.close();
    },
  };
}
