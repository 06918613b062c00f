import type { Delivery } from '../domain/delivery.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../domain/feed-event.js';
import { itemMatches, type WebhookFilter } from '../domain/webhook-filter.js';
import { deliveryId } from './deliver-webhook.js';
import type { AppDeps } from './deps.js';
import { eventInScope, webhookEventScope } from './event-scope.js';

export type DispatchDeps = Pick<AppDeps, 'webhooks' | 'deliveries' | 'bundles' | 'deliveryScheduler' | 'clock'>;

/** The event with only the items the filter lets through; undefined when none is left. */
export function filterEvent(event: FeedUpdateEvent, filter: WebhookFilter | null): FeedUpdateEvent | undefined {
  if (filter === null) return event;
  const itemsNew = event.data.items_new.filter((item) => itemMatches(item, filter));
  const itemsChanged = event.data.items_changed.filter((item) => itemMatches(item, filter));
  if (itemsNew.length + itemsChanged.length === 0) return undefined;
  return { ...event, data: { items_new: itemsNew, items_changed: itemsChanged } };
}

/**
 * Turns a feed event into one delivery per enabled webhook of the account whose scope covers the
 * feed and whose filters leave something to send. Idempotent: an event seen twice (a replayed
 * outbox, two listeners) creates each delivery once.
 */
export async function dispatchEvent(deps: DispatchDeps, envelope: FeedEventEnvelope): Promise<number> {
  let created = 0;
  const now = deps.clock.now();
  for (const webhook of await deps.webhooks.listEnabled(envelope.accountId)) {
    if (!(await eventInScope(deps, webhookEventScope(webhook.accountId, webhook.scope), envelope))) continue;
    const event = filterEvent(envelope.event, webhook.filters);
    if (!event) continue;
    const delivery: Delivery = {
      id: deliveryId(webhook.id, event.id),
      webhookId: webhook.id,
      accountId: webhook.accountId,
      eventId: event.id,
      body: JSON.stringify(event),
      status: 'pending',
      attempts: 0,
      createdAt: now.toISOString(),
      nextAttemptAt: now.toISOString(),
    };
    if (await deps.deliveries.create(delivery)) {
      await deps.deliveryScheduler.schedule(delivery.id, now);
      created += 1;
      continue;
    }
    // Made by another listener, which may have died before scheduling it: schedule it at its own
    // time (idempotent per id), or the delivery would wait for a restart.
    const existing = await deps.deliveries.get(delivery.id);
    if (existing?.status === 'pending') await deps.deliveryScheduler.schedule(existing.id, new Date(existing.nextAttemptAt ?? now.toISOString()));
  }
  return created;
}

/** At start-up, deliveries still pending are scheduled again. */
export async function resumeDeliveries(deps: Pick<AppDeps, 'deliveries' | 'deliveryScheduler' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const pending = await deps.deliveries.listPending();
  for (const { id, nextAttemptAt } of pending) {
    const at = nextAttemptAt ? new Date(nextAttemptAt) : now;
    await deps.deliveryScheduler.schedule(id, at < now ? now : at);
  }
  return pending.length;
}
