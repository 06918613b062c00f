import type { Delivery, DeliveryAttempt } from '../../domain/delivery.js';
import type { ItemFilter } from '../../domain/item-filter.js';
import type { Webhook } from '../../domain/webhook.js';

/** A webhook as the API shows it; the secret appears only when created or rotated. */
export interface ApiWebhook {
  id: string;
  url: string;
  scope: 'all' | 'feeds' | 'bundles';
  feeds: string[];
  bundles: string[];
  filters: ItemFilter | null;
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export function toApiWebhook(webhook: Webhook): ApiWebhook {
  return {
    id: webhook.id,
    url: webhook.url,
    scope: webhook.scope.kind,
    feeds: webhook.scope.kind === 'feeds' ? webhook.scope.feedIds : [],
    bundles: webhook.scope.kind === 'bundles' ? webhook.scope.bundleIds : [],
    filters: webhook.filters,
    enabled: webhook.enabled,
    disabled_reason: webhook.disabledReason,
    failing_since: webhook.failingSince,
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
}

/** What create and rotate answer: the webhook, with the secret shown this once. */
export type ApiWebhookWithSecret = ApiWebhook & { secret: string };

export const toApiWebhookWithSecret = ({ webhook, secret }: { webhook: Webhook; secret: string }): ApiWebhookWithSecret => ({
  ...toApiWebhook(webhook),
  secret,
});

/** One entry of the call history. */
export interface ApiDeliveryAttempt {
  delivery_id: string;
  event_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string;
  outcome: 'succeeded' | 'failed';
}

export const toApiAttempt = (attempt: DeliveryAttempt): ApiDeliveryAttempt => ({
  delivery_id: attempt.deliveryId,
  event_id: attempt.eventId,
  attempt: attempt.attempt,
  at: attempt.at,
  status_code: attempt.statusCode,
  latency_ms: attempt.latencyMs,
  error: attempt.error,
  response_excerpt: attempt.responseExcerpt,
  outcome: attempt.outcome,
});

/** What a manual retry answers: the delivery, queued again. */
export const toApiRetryResult = (delivery: Delivery & { status: 'pending' }): { delivery_id: string; status: 'pending' } => ({
  delivery_id: delivery.id,
  status: delivery.status,
});
