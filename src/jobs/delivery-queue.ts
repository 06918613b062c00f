import type { AppDeps } from '../app/deps.js';
import type { DeliverDeps } from '../app/deliver-webhook.js';
import type { DispatchDeps } from '../app/dispatch-event.js';
import { isEventId } from '../domain/ids.js';
import type { JobHandler } from '../ports/scheduler.js';
import { deliverWebhookHandler } from './deliver-webhook.js';
import { dispatchEventHandler } from './dispatch-event.js';

/**
 * The delivery queue runs two kinds of job, told apart by their id: an event (`evt_…`) is
 * dispatched into its deliveries; a delivery (`dlv_…`) is attempted.
 */
export function deliveryQueueHandler(deps: DeliverDeps & DispatchDeps & Pick<AppDeps, 'metrics' | 'outbox'>): JobHandler {
  const dispatch = dispatchEventHandler(deps);
  const deliver = deliverWebhookHandler(deps);
  return (job) => (isEventId(job.id) ? dispatch(job) : deliver(job));
}
