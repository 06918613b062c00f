import type { RandomBytes } from '../domain/ids.js';
import type { PollPolicy } from '../domain/poll-policy.js';
import type { PlatformRule } from '../domain/platforms/platform-rule.js';
import type { AuthThrottle } from '../ports/auth-throttle.js';
import type { BundleStore } from '../ports/bundle-store.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveryStore } from '../ports/delivery-store.js';
import type { FeedParser } from '../ports/feed-parser.js';
import type { EventBus } from '../ports/event-bus.js';
import type { EventOutbox } from '../ports/event-outbox.js';
import type { FeedStore } from '../ports/feed-store.js';
import type { IdempotencyStore } from '../ports/idempotency-store.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { PageRenderer } from '../ports/page-renderer.js';
import type { ItemStore } from '../ports/item-store.js';
import type { KeyStore } from '../ports/key-store.js';
import type { Metrics } from '../ports/metrics.js';
import type { OpmlImportStore } from '../ports/opml-import-store.js';
import type { Scheduler } from '../ports/scheduler.js';
import type { SessionStore } from '../ports/session-store.js';
import type { UserStore } from '../ports/user-store.js';
import type { HostGate } from './host-gate.js';
import type { WebhookSender } from '../ports/webhook-sender.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { WebsubStore } from '../ports/websub-store.js';

export interface AppSettings {
  /** Base of every hosted address (`rss_feed_url`), without a trailing slash. */
  publicUrl: string;
  poll: PollPolicy;
  /** `FEEDMILL_KEYWORD_SEARCH_URL`: upstream of keyword feeds; Google News RSS search when absent. */
  keywordSearchUrl?: string;
  /** 32 bytes that seal webhook signing secrets and the fetch options of feeds at rest (AES-256-GCM). */
  secretKey: Buffer;
  /** `FEEDMILL_FEED_DISABLE_AFTER`: a feed whose fetches have all failed for this long is disabled. @default 604800 */
  feedDisableAfterSeconds: number;
  /** A webhook whose deliveries have all failed for this long is disabled. */
  webhookDisableAfterSeconds: number;
  /** `FEEDMILL_SESSION_IDLE_TIMEOUT`: a dashboard session unused for this long is over. @default 86400 */
  sessionIdleSeconds: number;
  /** `FEEDMILL_SESSION_MAX_AGE`: a dashboard session is over this long after sign-in, used or not. @default 1209600 */
  sessionMaxAgeSeconds: number;
  /** The operator's rules (`FEEDMILL_PLATFORM_RULES`) before the built-in ones: page URL → the platform's own feeds. */
  platformRules: readonly PlatformRule[];
  /** `FEEDMILL_EVENT_STREAMS_PER_ACCOUNT`: `GET /v1/events` streams one account may hold open in this process. @default 20 */
  eventStreamsPerAccount: number;
  /** `FEEDMILL_DISCOVER_TIMEOUT`: how long `GET /v1/discover` spends confirming candidates. @default 5000 */
  discoverTimeoutMs: number;
  /** `FEEDMILL_WEBSUB_MAX_SUBSCRIBERS`: live WebSub subscribers one feed or bundle may have, its formats together. @default 1000 */
  websubMaxSubscribers?: number;
  fullText: FullTextLimits;
}

/** How politely full text fetches article pages (docs/full-text.md). */
export interface FullTextLimits {
  /** `FEEDMILL_FULL_TEXT_PER_HOST`: article fetches at once to one host, per process. @default 2 */
  perHost: number;
  /** `FEEDMILL_FULL_TEXT_HOST_PAUSE`: the pause after each article fetch before that slot of the host is used again, in ms. @default 1000 */
  hostPauseMs: number;
  /** `FEEDMILL_FULL_TEXT_PER_REFRESH`: new items of one refresh whose articles are fetched; the rest are `skipped`. @default 50 */
  perRefresh: number;
  /** `FEEDMILL_FULL_TEXT_MAX_WAIT`: an item waits this long for its article before it is announced without it, in seconds. @default 600 */
  maxWaitSeconds: number;
}

/** Every port the use cases need; each use case asks only for its part with `Pick`. */
export interface AppDeps {
  feeds: FeedStore;
  items: ItemStore;
  keys: KeyStore;
  /** People who sign in to the dashboard, and their sessions. */
  users: UserStore;
  sessions: SessionStore;
  /** Failed authentications per key id and client address: in memory, or shared in Redis. */
  authThrottle: AuthThrottle;
  bundles: BundleStore;
  idempotency: IdempotencyStore;
  outbox: EventOutbox;
  bus: EventBus;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  /** The WebSub hub's subscriptions; distributions run on `deliveryScheduler` too (job id = subscription id). */
  websub: WebsubStore;
  webhookSender: WebhookSender;
  /** OPML imports and their progress; the imports run on `deliveryScheduler` (job id = import id). */
  imports: OpmlImportStore;
  /** Runs article fetches of full-text feeds (job id = articleJobId, one per item): a queue of their own, so a slow site never delays a refresh. */
  articleScheduler: Scheduler;
  /** This process's per-host limit on article page fetches (full text), shared by article jobs and previews. */
  articleGate: HostGate;
  /** Runs webhook deliveries (job id = delivery id); `scheduler` runs feed refreshes. */
  deliveryScheduler: Scheduler;
  fetcher: Fetcher;
  /**
   * `fetcher` for one call that may fetch several candidates (a preview): at most `budget` fetches,
   * then each further one fails as `source_unreachable`. A fresh count each time it is asked for.
   */
  fetcherWithBudget: (budget: number) => Fetcher;
  /** Renders pages whose list a script builds; absent when this process has no browser (docs/rendering.md). */
  renderer?: PageRenderer;
  parser: FeedParser;
  scheduler: Scheduler;
  /**
   * Cluster mode: the refreshes that need a browser (domain `needsBrowser`), taken only by workers
   * that render; absent in one process, where `scheduler` runs them all (app/refresh-queue.ts).
   */
  renderScheduler?: Scheduler;
  clock: Clock;
  metrics: Metrics;
  random: RandomBytes;
  settings: AppSettings;
}

/** How many items a feed response and a hosted document show, newest first. */
export const itemsShown = 100;
