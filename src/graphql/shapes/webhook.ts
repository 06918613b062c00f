import type { DeliveryAttempt } from '../../domain/delivery.js';
import type { ItemFilter } from '../../domain/item-filter.js';
import type { Webhook } from '../../domain/webhook.js';

// GraphQL's own mapping of webhooks: its field names are the spec's, as REST's are, but each
// surface maps the domain itself (DESIGN.md), so neither inherits the other's.

/** A webhook as GraphQL shows it, in the spec's field names; `secret` only from create and rotate. */
export interface WebhookShape {
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
  secret?: string;
}

export const webhookShape = (webhook: Webhook, secret?: string): WebhookShape => ({
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
  ...(secret === undefined ? {} : { secret }),
});

/** One attempt as GraphQL shows it. */
export interface AttemptShape {
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

export const attemptShape = (attempt: DeliveryAttempt): AttemptShape => ({
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
