import type { AppDeps } from '../app/deps.js';
import type { DeliverDeps } from '../app/deliver-webhook.js';
import type { DispatchDeps } from '../app/dispatch-event.js';
import { createHostedFeedRenderer } from '../app/hosted-feed.js';
import type { DistributeDeps } from '../app/websub-distribute.js';
import { topicRendererOf, type TopicRenderer } from '../app/websub-topics.js';
import { isEventId } from '../domain/ids.js';
import { isOpmlImportId } from '../domain/opml.js';
import { isWebsubSubscriptionId } from '../domain/websub.js';
import type { JobHandler } from '../ports/scheduler.js';
import { deliverWebhookHandler } from './deliver-webhook.js';
import { dispatchEventHandler } from './dispatch-event.js';
import { distributeWebsubHandler } from './distribute-websub.js';
import { importOpmlHandler } from './import-opml.js';

/**
 * The delivery queue runs four kinds of job, told apart by their id: an event (`evt_…`) is
 * dispatched into its webhook deliveries and WebSub distributions; a delivery (`dlv_…`) is
 * attempted; a WebSub subscription (`wss_…`) gets the current document of its topic; an OPML
 * import (`imp_…`) imports its outlines.
 */
export function deliveryQueueHandler(
  deps: AppDeps & DeliverDeps & DispatchDeps & DistributeDeps,
  render: TopicRenderer = topicRendererOf(createHostedFeedRenderer(deps)),
): JobHandler {
  const dispatch = dispatchEventHandler(deps);
  const deliver = deliverWebhookHandler(deps);
  const distribute = distributeWebsubHandler(deps, render);
  const importOpml = importOpmlHandler(deps);
  return (job) =>
    isEventId(job.id)
      ? dispatch(job)
      : isWebsubSubscriptionId(job.id)
        ? distribute(job)
        : isOpmlImportId(job.id)
          ? importOpml(job)
          : deliver(job);
}
