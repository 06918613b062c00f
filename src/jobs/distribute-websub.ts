import { distribute, type DistributeDeps } from '../app/websub-distribute.js';
import type { TopicRenderer } from '../app/websub-topics.js';
import type { JobHandler } from '../ports/scheduler.js';

/** The distribution job: `{ id: subscriptionId }` → one POST of the topic's current document → the time of the next, or null. */
export const distributeWebsubHandler =
  (deps: DistributeDeps, render: TopicRenderer): JobHandler =>
  async ({ id }) =>
    (await distribute(deps, render, id)).next;
