import type { Delivery } from '../domain/delivery.js';
import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';
import { deliveryId } from './deliver-webhook.js';
import type { AppDeps } from './deps.js';
import { passingEvent } from './event-filters.js';
import { webhookEventScope } from './event-scope.js';

export type DispatchDeps = Pick<AppDeps, 'webhooks' | 'deliveries' | 'bundles' | 'deliveryScheduler' | 'clock'>;

/**
 * Turns a feed event into one delivery per enabled webhook of the account whose scope covers the
 * feed and whose filters leave something to send. Idempotent: an event seen twice (a replayed
 * outbox, two listeners) creates each delivery once.
 */
export async function dispatchEvent(deps: DispatchDeps, envelope: FeedEventEnvelope): Promise<number> {
  let created = 0;
  const now = deps.clock.now();
  for (const webhook of await deps.webhooks.listEnabled(envelope.accountId)) {
    const event = await passingEvent(deps, webhookEventScope(webhook.accountId, webhook.scope), envelope, webhook.filters);
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
    if (existing?.status === 'pending')
      await deps.deliveryScheduler.schedule(existing.id, new Date(existing.nextAttemptAt ?? now.toISOString()));
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
