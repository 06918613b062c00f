/** One (webhook, event) pair: the unit that is retried until it succeeds or gives up. */
export interface Delivery {
  /** `dlv_` + 24, derived from webhook and event ids so one event is delivered once per webhook. */
  id: string;
  webhookId: string;
  accountId: string;
  eventId: string;
  /** The exact body sent (the filtered event), so every retry sends the same bytes. */
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
}

/** One try at a delivery: the call history the user sees. */
export interface DeliveryAttempt {
  deliveryId: string;
  eventId: string;
  attempt: number;
  at: string;
  /** The receiver's status, or null when no answer came (timeout, refused connection…). */
  statusCode: number | null;
  latencyMs: number;
  /** Our error code when the attempt failed before or without an answer. */
  error: string | null;
  /** The start of the receiver's answer, at most 4 KiB. */
  responseExcerpt: string;
  outcome: 'succeeded' | 'failed';
}

/**
 * Delays before attempt 2, 3, …: the Standard Webhooks schedule (5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h), about a day in all. After the last one the delivery gives up.
 */
export const retryDelaysSeconds = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000] as const;

/**
 * When to try again after failed attempt `attempt` (1-based), or null to give up. ±20% jitter;
 * never sooner than the receiver's `Retry-After`.
 */
export function nextAttemptAt(now: Date, attempt: number, jitter: number, retryAfterSeconds?: number): Date | null {
  const base = retryDelaysSeconds[attempt - 1];
  if (base === undefined) return null;
  const seconds = Math.max(base * (0.8 + 0.4 * jitter), retryAfterSeconds ?? 0);
  return new Date(now.getTime() + Math.round(seconds * 1000));
}
