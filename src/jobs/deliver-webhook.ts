import { deliverWebhook, type DeliverDeps } from '../app/deliver-webhook.js';
import type { JobHandler } from '../ports/scheduler.js';

/** The delivery job: `{ id: deliveryId }` → one signed attempt → the time of the next, or null. */
export const deliverWebhookHandler =
  (deps: DeliverDeps): JobHandler =>
  async ({ id }) =>
    deliverWebhook(deps, id);
