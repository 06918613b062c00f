import type { RandomBytes } from '../domain/ids.js';
import type { PollPolicy } from '../domain/poll-policy.js';
import type { BundleStore } from '../ports/bundle-store.js';
import type { Clock } from '../ports/clock.js';
import type { FeedParser } from '../ports/feed-parser.js';
import type { EventBus } from '../ports/event-bus.js';
import type { EventOutbox } from '../ports/event-outbox.js';
import type { FeedStore } from '../ports/feed-store.js';
import type { IdempotencyStore } from '../ports/idempotency-store.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { ItemStore } from '../ports/item-store.js';
import type { KeyStore } from '../ports/key-store.js';
import type { Scheduler } from '../ports/scheduler.js';

export interface AppSettings {
  /** Base of every hosted address (`rss_feed_url`), without a trailing slash. */
  publicUrl: string;
  poll: PollPolicy;
}

/** Every port the use cases need; each use case asks only for its part with `Pick`. */
export interface AppDeps {
  feeds: FeedStore;
  items: ItemStore;
  keys: KeyStore;
  bundles: BundleStore;
  idempotency: IdempotencyStore;
  outbox: EventOutbox;
  bus: EventBus;
  fetcher: Fetcher;
  parser: FeedParser;
  scheduler: Scheduler;
  clock: Clock;
  random: RandomBytes;
  settings: AppSettings;
}

/** How many items a feed response and a hosted document show, newest first. */
export const itemsShown = 100;
