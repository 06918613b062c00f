import { deliverWebhook, type DeliverDeps } from '../app/deliver-webhook.js';
import type { AppDeps } from '../app/deps.js';
import type { JobHandler } from '../ports/scheduler.js';

/** The delivery job: `{ id: deliveryId }` → one signed attempt → the time of the next, or null. */
export const deliverWebhookHandler =
  (deps: DeliverDeps & Pick<AppDeps, 'metrics'>): JobHandler =>
  async ({ id }) => {
    const started = performance.now();
    const { attempted, next } = await deliverWebhook(deps, id);
    if (attempted)
      deps.metrics.delivery(
        attempted === 'succeeded' ? 'succeeded' : next === null ? 'given_up' : 'failed',
        (performance.now() - started) / 1000,
      );
    return next;
  };
