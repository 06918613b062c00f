import { createHash } from 'node:crypto';
import { nextAttemptAt, type Delivery, type DeliveryAttempt } from '../domain/delivery.js';
import { isFeedmillError } from '../domain/errors.js';
import { jitter } from '../domain/jitter.js';
import { signingSecrets, type Webhook } from '../domain/webhook.js';
import { signatureHeader } from '../domain/webhook-signature.js';
import type { WebhookResponse } from '../ports/webhook-sender.js';
import type { AppDeps } from './deps.js';
import { retryAfterSeconds } from './poll-signals.js';
import { open } from '../crypto/secret-box.js';

export type DeliverDeps = Pick<AppDeps, 'webhooks' | 'deliveries' | 'webhookSender' | 'clock' | 'random' | 'settings'>;

/** One delivery per (webhook, event): the same event reaching a webhook twice is delivered once. */
export const deliveryId = (webhookId: string, eventId: string): string =>
  `dlv_${createHash('sha256').update(`${webhookId}\n${eventId}`).digest('base64url').slice(0, 24)}`;

/** Standard Webhooks headers; `webhook-id` is the event id, the same on every retry. */
function signedHeaders(deps: DeliverDeps, webhook: Webhook, delivery: Delivery, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = signingSecrets(webhook, now.toISOString()).map((secret) => open(deps.settings.secretKey, secret.sealed));
  return {
    'content-type': 'application/json',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.body),
  };
}

async function send(
  deps: DeliverDeps,
  webhook: Webhook,
  delivery: Delivery,
  now: Date,
): Promise<WebhookResponse | { error: string; latencyMs: number }> {
  const started = Date.now();
  try {
    return await deps.webhookSender.send(webhook.url, signedHeaders(deps, webhook, delivery, now), delivery.body);
  } catch (error) {
    if (!isFeedmillError(error)) throw error;
    return { error: error.code, latencyMs: Date.now() - started };
  }
}

/** Disables a webhook and says why, so its owner sees it in the resource. */
const disable = (webhook: Webhook, reason: string, now: string): Webhook => ({
  ...webhook,
  enabled: false,
  disabledReason: reason,
  updatedAt: now,
});

/**
 * One attempt: sign, POST, record it in the history, then decide. 2xx is success; 410 disables the
 * webhook at once; any other failure is retried on the backoff schedule (honouring Retry-After)
 * until it gives up, and a webhook whose deliveries have all failed for
 * `webhookDisableAfterSeconds` is disabled. Returns when to try again, or null.
 */
export async function attemptDelivery(
  deps: DeliverDeps,
  webhook: Webhook,
  delivery: Delivery,
  retry = true,
): Promise<{ attempt: DeliveryAttempt; next: Date | null }> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const answer = await send(deps, webhook, delivery, now);
  const statusCode = 'statusCode' in answer ? answer.statusCode : null;
  const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const attempt: DeliveryAttempt = {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    attempt: delivery.attempts + 1,
    at,
    statusCode,
    latencyMs: answer.latencyMs,
    error: 'error' in answer ? answer.error : succeeded ? null : 'receiver_status',
    responseExcerpt: 'excerpt' in answer ? answer.excerpt : '',
    outcome: succeeded ? 'succeeded' : 'failed',
  };
  await deps.deliveries.recordAttempt(attempt);

  let updated: Webhook = { ...webhook, failingSince: succeeded ? null : (webhook.failingSince ?? at) };
  let next: Date | null = null;
  if (!succeeded) {
    const failingFor = now.getTime() - Date.parse(updated.failingSince ?? at);
    if (statusCode === 410)
      updated = disable(updated, 'The receiver answered 410 Gone; enable the webhook again once it accepts deliveries', at);
    else if (failingFor > deps.settings.webhookDisableAfterSeconds * 1000) {
      updated = disable(
        updated,
        `Every delivery failed for more than ${Math.round(deps.settings.webhookDisableAfterSeconds / 3600)} h; fix the receiver, then enable the webhook again`,
        at,
      );
    } else if (retry) {
      next = nextAttemptAt(
        now,
        attempt.attempt,
        jitter(deps.random),
        retryAfterSeconds('retryAfter' in answer ? answer.retryAfter : undefined, now),
      );
    }
  }
  if (updated.failingSince !== webhook.failingSince || updated.enabled !== webhook.enabled) await deps.webhooks.save(updated);
  await deps.deliveries.save({
    ...delivery,
    attempts: attempt.attempt,
    status: succeeded ? 'succeeded' : next === null ? 'failed' : 'pending',
    nextAttemptAt: next?.toISOString() ?? null,
  });
  return { attempt, next };
}

/**
 * The delivery job: one attempt, then the time of the next (null when done). `attempted` is the
 * attempt's outcome, or null when there was nothing to send (delivered already, webhook gone).
 */
export async function deliverWebhook(
  deps: DeliverDeps,
  id: string,
): Promise<{ attempted: 'succeeded' | 'failed' | null; next: Date | null }> {
  const delivery = await deps.deliveries.get(id);
  if (!delivery || delivery.status !== 'pending') return { attempted: null, next: null };
  const webhook = await deps.webhooks.get(delivery.accountId, delivery.webhookId);
  if (!webhook || !webhook.enabled) {
    await deps.deliveries.save({ ...delivery, status: 'failed', nextAttemptAt: null });
    return { attempted: null, next: null };
  }
  const { attempt, next } = await attemptDelivery(deps, webhook, delivery);
  return { attempted: attempt.outcome, next };
}
