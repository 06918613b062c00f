import type { AppDeps } from '../app/deps.js';
import { dispatchEvent, type DispatchDeps } from '../app/dispatch-event.js';
import { scheduleDistributions, type DistributeDeps } from '../app/websub-distribute.js';
import type { JobHandler } from '../ports/scheduler.js';

/**
 * The dispatch job: `{ id: eventId }` → the event from the outbox → one delivery per webhook it
 * concerns, and one distribution per WebSub subscription to the feed or a bundle holding it → the
 * event marked published. One job per event id, in either mode, so an event is dispatched once
 * however many workers run; a store that fails meanwhile makes the scheduler try the job again, so
 * an outage can delay an event's deliveries but never lose them. The mark comes last: until the
 * deliveries are stored, the event is the sweep's to send again (publishPendingEvents).
 */
export const dispatchEventHandler =
  (deps: DispatchDeps & DistributeDeps & Pick<AppDeps, 'outbox'>): JobHandler =>
  async ({ id }) => {
    const envelope = await deps.outbox.get(id);
    // Gone past its retention: nothing left to send.
    if (envelope) {
      await dispatchEvent(deps, envelope);
      await scheduleDistributions(deps, envelope);
      await deps.outbox.markPublished(id, deps.clock.now().toISOString());
    }
    return null;
  };
