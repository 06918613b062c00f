import { FeedmillError } from '../domain/errors.js';
import type { Intent, VerificationOutcome } from './websub-subscribe.js';

/** Runs verifications of intent after the hub has answered 202, in this process. */
export interface IntentVerifier {
  /** Starts verifying; throws `rate_limited` when too many are under way already. */
  start(intent: Intent): void;
  /** Verifications under way. */
  readonly size: number;
  /** Resolves when every verification under way has ended (graceful shutdown). */
  drain(): Promise<void>;
}

export interface IntentVerifierOptions {
  verify(intent: Intent): Promise<VerificationOutcome>;
  onOutcome?(intent: Intent, outcome: VerificationOutcome): void;
  onError(intent: Intent, error: unknown): void;
  /** Verifications at once; more are refused, so a flood of requests cannot fan out unbounded GETs. @default 256 */
  maxPending?: number;
  /**
   * Verifications at once whose callbacks are on one host; more are refused, so one subscriber
   * answering slowly (or never) cannot hold every slot and starve everyone else's subscriptions.
   * @default 8
   */
  maxPendingPerHost?: number;
}

/**
 * WebSub §5.3 makes verification asynchronous: the hub answers 202 first. A verification is short
 * (one GET under the webhook timeout) and a subscriber whose verification was lost to a restart
 * simply asks again, so verifications run in the API process rather than as stored jobs.
 */
export function createIntentVerifier(options: IntentVerifierOptions): IntentVerifier {
  const maxPending = options.maxPending ?? 256;
  const maxPendingPerHost = options.maxPendingPerHost ?? 8;
  const pending = new Set<Promise<void>>();
  const perHost = new Map<string, number>();
  return {
    start(intent) {
      if (pending.size >= maxPending) {
        throw new FeedmillError('rate_limited', `The hub is verifying ${pending.size} requests already; ask again in a minute`, {
          retryAfter: 60,
        });
      }
      // The callback passed the URL rule when the request was accepted.
      const host = new URL(intent.callback).hostname;
      const atHost = perHost.get(host) ?? 0;
      if (atHost >= maxPendingPerHost) {
        throw new FeedmillError(
          'rate_limited',
          `Expected at most ${maxPendingPerHost} verifications at once for callbacks on \`${host}\`, and ${atHost} are under way; ask again when they have answered`,
          { retryAfter: 10 },
        );
      }
      perHost.set(host, atHost + 1);
      const run = options.verify(intent).then(
        (outcome) => options.onOutcome?.(intent, outcome),
        (error: unknown) => options.onError(intent, error),
      );
      const tracked = run.finally(() => {
        pending.delete(tracked);
        const left = (perHost.get(host) ?? 1) - 1;
        if (left > 0) perHost.set(host, left);
        else perHost.delete(host);
      });
      pending.add(tracked);
    },
    get size() {
      return pending.size;
    },
    async drain() {
      await Promise.all(pending);
    },
  };
}
