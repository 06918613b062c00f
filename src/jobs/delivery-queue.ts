import type { AppDeps } from '../app/deps.js';
import type { DeliverDeps } from '../app/deliver-webhook.js';
import type { DispatchDeps } from '../app/dispatch-event.js';
import { createHostedFeedRenderer } from '../app/hosted-feed.js';
import type { DistributeDeps } from '../app/websub-distribute.js';
import { topicRendererOf, type TopicRenderer } from '../app/websub-topics.js';
import { isEventId } from '../domain/ids.js';
import { isWebsubSubscriptionId } from '../domain/websub.js';
import type { JobHandler } from '../ports/scheduler.js';
import { deliverWebhookHandler } from './deliver-webhook.js';
import { dispatchEventHandler } from './dispatch-event.js';
import { distributeWebsubHandler } from './distribute-websub.js';

/**
 * The delivery queue runs three kinds of job, told apart by their id: an event (`evt_…`) is
 * dispatched into its webhook deliveries and WebSub distributions; a delivery (`dlv_…`) is
 * attempted; a WebSub subscription (`wss_…`) gets the current document of its topic.
 */
export function deliveryQueueHandler(
  deps: DeliverDeps & DispatchDeps & DistributeDeps & Pick<AppDeps, 'metrics' | 'outbox' | 'feeds' | 'items'>,
  render: TopicRenderer = topicRendererOf(createHostedFeedRenderer(deps)),
): JobHandler {
  const dispatch = dispatchEventHandler(deps);
  const deliver = deliverWebhookHandler(deps);
  const distribute = distributeWebsubHandler(deps, render);
  return (job) => (isEventId(job.id) ? dispatch(job) : isWebsubSubscriptionId(job.id) ? distribute(job) : deliver(job));
}
