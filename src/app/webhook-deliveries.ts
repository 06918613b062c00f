import type { Principal } from '../domain/api-key.js';
import type { Delivery, DeliveryAttempt } from '../domain/delivery.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedUpdateEvent } from '../webhook-event/feed-update-event.js';
import { randomToken } from '../domain/ids.js';
import { attemptDelivery, deliveryId, type DeliverDeps } from './deliver-webhook.js';
import type { AppDeps } from './deps.js';
import { findWebhook } from './webhooks.js';

/** A sample event, marked as a test by its feed id, so receivers can check their setup end to end. */
function testEvent(deps: Pick<AppDeps, 'random' | 'clock' | 'settings'>): FeedUpdateEvent {
  const now = deps.clock.now().toISOString();
  return {
    id: `evt_${randomToken(deps.random, 24)}`,
    type: 'feed_update',
    feed: {
      id: 'test',
      title: 'feedmill test event',
      source_url: `${deps.settings.publicUrl}/test`,
      rss_feed_url: `${deps.settings.publicUrl}/feeds/test.xml`,
      description: 'Sent by POST /v1/webhooks/:id/test',
      icon: '',
    },
    data: {
      items_new: [
        {
          url: `${deps.settings.publicUrl}/test/item`,
          title: 'Test item',
          description_text: 'If you can read this, your webhook works.',
          thumbnail: null,
          date_published: now,
          authors: [{ name: 'feedmill' }],
        },
      ],
      items_changed: [],
    },
  };
}

/** POST /v1/webhooks/:id/test: one signed test event, sent now; the attempt is in the history. */
export async function sendTestEvent(deps: DeliverDeps, principal: Principal, webhookId: string): Promise<DeliveryAttempt> {
  const webhook = await findWebhook(deps, principal, webhookId);
  const event = testEvent(deps);
  const delivery = {
    id: deliveryId(webhook.id, event.id),
    webhookId: webhook.id,
    accountId: webhook.accountId,
    eventId: event.id,
    body: JSON.stringify(event),
    status: 'pending' as const,
    attempts: 0,
    createdAt: deps.clock.now().toISOString(),
    nextAttemptAt: null,
  };
  await deps.deliveries.create(delivery);
  // A test is not retried: its answer is what the caller came for.
  return (await attemptDelivery(deps, webhook, delivery, false)).attempt;
}

/** POST /v1/webhooks/:id/deliveries/:deliveryId/retry: tries a delivery again now, whatever its state. */
export async function retryDelivery(
  deps: Pick<AppDeps, 'webhooks' | 'deliveries' | 'deliveryScheduler' | 'clock'>,
  principal: Principal,
  webhookId: string,
  id: string,
): Promise<Delivery & { status: 'pending' }> {
  const webhook = await findWebhook(deps, principal, webhookId);
  const delivery = await deps.deliveries.get(id);
  if (!delivery || delivery.webhookId !== webhook.id) {
    throw new FeedmillError(
      'delivery_not_found',
      `Delivery \`${id}\` is not one of webhook \`${webhookId}\`; see GET /v1/webhooks/${webhookId}/deliveries`,
    );
  }
  const now = deps.clock.now();
  const pending = { ...delivery, status: 'pending' as const, nextAttemptAt: now.toISOString() };
  await deps.deliveries.save(pending);
  await deps.deliveryScheduler.schedule(delivery.id, now);
  return pending;
}
