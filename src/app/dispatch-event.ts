import type { Delivery } from '../domain/delivery.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../webhook-event/feed-update-event.js';
import { filterUses, itemMatches, type ItemFilter } from '../domain/item-filter.js';
import { eventCategories } from './bundle-scope.js';
import { deliveryId } from './deliver-webhook.js';
import type { AppDeps } from './deps.js';
import { scopedEvent, webhookEventScope } from './event-scope.js';

export type DispatchDeps = Pick<AppDeps, 'webhooks' | 'deliveries' | 'bundles' | 'deliveryScheduler' | 'clock' | 'items'>;

/**
 * The event with only the items the filter lets through; undefined when none is left. Events do
 * not carry categories: `categories` holds them in event order (new items, then changed).
 */
export function filterEvent(
  event: FeedUpdateEvent,
  filter: ItemFilter | null,
  now: Date,
  categories: readonly (readonly string[])[] = [],
): FeedUpdateEvent | undefined {
  if (filter === null) return event;
  const offset = event.data.items_new.length;
  const itemsNew = event.data.items_new.filter((item, index) => itemMatches({ ...item, categories: categories[index] }, filter, now));
  const itemsChanged = event.data.items_changed.filter((item, index) =>
    itemMatches({ ...item, categories: categories[offset + index] }, filter, now),
  );
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
  let categories: Promise<string[][]> | undefined;
  // Read once per event, and only for a filter that judges categories.
  const categoriesOf = (): Promise<string[][]> => (categories ??= eventCategories(deps, envelope));
  for (const webhook of await deps.webhooks.listEnabled(envelope.accountId)) {
    const inScope = await scopedEvent(deps, webhookEventScope(webhook.accountId, webhook.scope), envelope);
    if (!inScope) continue;
    const needsCategories = webhook.filters !== null && filterUses(webhook.filters, 'category');
    const event = filterEvent(inScope, webhook.filters, now, needsCategories ? await categoriesOf() : []);
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
