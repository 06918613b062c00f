import { FeedmillError } from '../domain/errors.js';

export interface SubscriptionCaps {
  /** Live subscriptions one connection (a WebSocket, or one SSE request) may hold. @default 20 */
  perConnection: number;
  /** Live subscriptions one account may hold across all its connections in this process. @default 100 */
  perAccount: number;
}

export const defaultSubscriptionCaps: SubscriptionCaps = { perConnection: 20, perAccount: 100 };

/** Gives a slot back; calling it again does nothing, so every way a subscription ends may call it. */
export type Release = () => void;

/**
 * Counts live subscriptions per connection and per account, so one client cannot hold the memory
 * and bus listeners of thousands (issue 12: 20,000 `subscribe` messages on one socket took RSS
 * from 183 to 442 MB). Counts are in this process: in cluster mode each API replica enforces the
 * caps on the connections it holds.
 */
export class SubscriptionSlots {
  readonly #caps: SubscriptionCaps;
  readonly #accounts = new Map<string, number>();
  // Keyed by the transport's own connection object, so a connection that is gone takes its entry with it.
  readonly #connections = new WeakMap<object, number>();

  constructor(caps: SubscriptionCaps = defaultSubscriptionCaps) {
    this.#caps = caps;
  }

  /** Takes a slot for one subscription, or throws `too_many_subscriptions` saying which cap it met. */
  take(accountId: string, connection: object): Release {
    const onConnection = this.#connections.get(connection) ?? 0;
    const onAccount = this.#accounts.get(accountId) ?? 0;
    if (onConnection >= this.#caps.perConnection) {
      throw new FeedmillError(
        'too_many_subscriptions',
        `Expected at most ${this.#caps.perConnection} live subscriptions on one connection, got a request for one more; complete one first, or merge them with feedIds/bundleIds`,
      );
    }
    if (onAccount >= this.#caps.perAccount) {
      throw new FeedmillError(
        'too_many_subscriptions',
        `Expected at most ${this.#caps.perAccount} live subscriptions for this account, got a request for one more; complete one first, or merge them with feedIds/bundleIds`,
      );
    }
    this.#connections.set(connection, onConnection + 1);
    this.#accounts.set(accountId, onAccount + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#connections.set(connection, (this.#connections.get(connection) ?? 1) - 1);
      const left = (this.#accounts.get(accountId) ?? 1) - 1;
      if (left > 0) this.#accounts.set(accountId, left);
      else this.#accounts.delete(accountId);
    };
  }

  /** Live subscriptions of an account in this process (for tests and metrics). */
  countOf(accountId: string): number {
    return this.#accounts.get(accountId) ?? 0;
  }
}
