import type { WebsubDistribution, WebsubSubscription } from '../domain/websub.js';

/** A live subscription and where its content distribution stands. */
export type StoredWebsubSubscription = WebsubSubscription & { distribution: WebsubDistribution };

/**
 * The WebSub hub's subscriptions (W3C WebSub §5). A subscription past its `expiresAt` is gone:
 * no read returns it, and the stores drop it (Cassandra by TTL, the embedded store on read).
 * Lease and distribution are written apart, so a renewal and a delivery attempt running at the
 * same moment never undo each other.
 */
export interface WebsubStore {
  /**
   * Creates the subscription, or renews the one of the same id (same topic and callback) with the
   * new lease and secret, keeping its `createdAt` and its distribution.
   */
  saveLease(subscription: WebsubSubscription): Promise<void>;
  /** Records where the distribution stands; nothing when the subscription is gone. */
  saveDistribution(id: string, distribution: WebsubDistribution): Promise<void>;
  /** The live subscription, or undefined when it never existed, was removed or expired by `now`. */
  get(id: string, now: Date): Promise<StoredWebsubSubscription | undefined>;
  /** Idempotent: removing a missing subscription changes nothing. */
  remove(id: string): Promise<void>;
  /** Live subscriptions to topics of an account (its feeds and bundles). */
  listByAccount(accountId: string, now: Date): Promise<StoredWebsubSubscription[]>;
  /** Live subscriptions with content still to send, for rebuilding schedules at start-up. */
  listPending(now: Date): Promise<{ id: string; nextAttemptAt: string | null }[]>;
}
