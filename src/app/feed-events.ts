import type { Feed } from '../domain/feed.js';
import { changedFields, feedEventId } from '../domain/feed-event.js';
import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';
import { eventItem, toEventFeed } from '../webhook-event/to-event.js';
import type { ItemDiff } from '../domain/item-diff.js';
import type { FilterSubject } from '../domain/item-filter.js';
import { withFullText } from '../domain/full-text.js';
import { judgeItem } from '../domain/keep-block.js';
import type { StoredItem } from '../domain/stored-item.js';
import type { AppDeps } from './deps.js';

/** An item as filters judge it: as shown (custom author applied), with its categories. */
export const filterSubject = (item: StoredItem, customAuthor: string | null): FilterSubject => ({
  ...eventItem(item, customAuthor),
  categories: item.categories,
});

/**
 * The `feed_update` event of a diff, with the items the feed's filters keep (none kept: no event). Its id is derived from the items it announces, so a refresh
 * retried after a crash names the same change the same way. It is stored by ItemStore.commit,
 * in the one conditional write that stores its items.
 */
export async function feedEvent(
  deps: Pick<AppDeps, 'items' | 'settings'>,
  feed: Feed,
  diff: Pick<ItemDiff, 'fresh' | 'changed'>,
  now: Date,
): Promise<FeedEventEnvelope | undefined> {
  // Items are announced as they are shown: with their article as the description, when full text has one.
  const show = (item: StoredItem): StoredItem => withFullText(item, feed.settings);
  const author = feed.settings.customAuthor;
  // The feed's keep/block filters: what they drop is announced to no one.
  const shown = (item: StoredItem): boolean => judgeItem(filterSubject(item, author), feed.settings.filters, now).kept;
  const fresh = diff.fresh.filter(shown);
  const changed = diff.changed.filter(shown);
  if (fresh.length + changed.length === 0) return undefined;
  const before = new Map(
    (
      await deps.items.getMany(
        feed.id,
        changed.map((item) => item.key),
      )
    ).map((item) => [item.key, item]),
  );
  const envelope: FeedEventEnvelope = {
    itemKeys: [...fresh, ...changed].map((item) => item.key),
    itemCategories: [...fresh, ...changed].map((item) => [...item.categories]),
    accountId: feed.accountId,
    feedId: feed.id,
    occurredAt: now.toISOString(),
    event: {
      id: feedEventId(feed.id, [...fresh, ...changed]),
      type: 'feed_update',
      feed: toEventFeed(feed, deps.settings.publicUrl),
      data: {
        items_new: fresh.map((item) => eventItem(show(item), author)),
        items_changed: changed.map((item) => {
          const previous = before.get(item.key);
          return { ...eventItem(show(item), author), changed_fields: previous ? changedFields(show(previous), show(item)) : [] };
        }),
      },
    },
  };
  return envelope;
}

/**
 * Sends an event on its two ways: a dispatch job keyed by its id (webhooks and WebSub: retried
 * until the deliveries exist), and the bus (live subscriptions). The event is marked published in
 * the outbox by the dispatch job, once its deliveries and distributions are stored
 * (jobs/dispatch-event.ts), not here: a job is held only by the scheduler (Redis, or this
 * process's memory), and one lost with it, before it ran, must leave the event for the sweep to
 * send again. Both ways are idempotent per id; live streams skip an id they already told.
 */
export async function publishFeedEvent(
  deps: Pick<AppDeps, 'bus' | 'clock' | 'deliveryScheduler'>,
  envelope: FeedEventEnvelope,
): Promise<void> {
  await deps.deliveryScheduler.schedule(envelope.event.id, deps.clock.now());
  await deps.bus.publish(envelope);
}

/**
 * Publishes events not yet dispatched: recorded by a process that died before publishing them, or
 * published but whose dispatch job was lost (Redis restarted without its data, or an embedded
 * process died with the job in memory). All of them at start-up, and, on a timer, those older than
 * `recordedBefore` — a process alive would have dispatched those long ago, so one that stopped
 * after storing the items (whose next refresh sees no change, and so records nothing) would
 * otherwise leave them waiting for a restart. Publishing one twice is harmless: it keeps its id,
 * dispatch is idempotent per event id, and live streams skip an id they already told.
 */
export async function publishPendingEvents(
  deps: Pick<AppDeps, 'bus' | 'outbox' | 'clock' | 'deliveryScheduler'>,
  recordedBefore?: Date,
): Promise<number> {
  let count = 0;
  for (;;) {
    const batch = await deps.outbox.unpublished(100);
    // Oldest first: the first event too young ends the sweep.
    const due = recordedBefore ? batch.filter((envelope) => new Date(envelope.occurredAt) < recordedBefore) : batch;
    for (const envelope of due) await publishFeedEvent(deps, envelope);
    count += due.length;
    if (batch.length < 100 || due.length < batch.length) return count;
  }
}
