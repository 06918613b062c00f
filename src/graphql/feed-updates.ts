import { Repeater, SlidingBuffer } from 'graphql-yoga';
import { getBundle } from '../app/bundles.js';
import { coveringBundleFilters, eventCategories, filtersNeedCategories, throughBundles } from '../app/bundle-scope.js';
import { findFeed } from '../app/find-feed.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../domain/feed-event.js';
import type { GraphqlContext } from './builder.js';
import type { Release } from './subscription-slots.js';

export interface FeedUpdateFilter {
  feedIds?: readonly string[];
  bundleIds?: readonly string[];
}

/**
 * A subscriber slower than this many events loses the oldest ones rather than holding memory
 * without bound; event ids let it notice (and the feed's items are always there to re-read).
 */
const backlog = 100;

function checkNotEmpty(name: string, ids: readonly string[] | undefined): void {
  if (ids?.length === 0) throw new FeedmillError('validation_failed', `Expected at least one id in \`${name}\`; leave it out to receive every feed`);
}

/**
 * The `feedUpdate` stream of one subscriber. Every id is checked before the stream starts (another
 * account's feed or bundle is not found, never silently empty). Each event must belong to the
 * subscriber's account before anything else is looked at; bundle membership is read at event time,
 * as webhook dispatch does, so feeds added to a bundle later are covered.
 */
export async function feedUpdates(
  { deps, principal, closing, subscriptionSlots, connection }: GraphqlContext,
  filter: FeedUpdateFilter,
): Promise<AsyncIterableIterator<FeedUpdateEvent>> {
  checkNotEmpty('feedIds', filter.feedIds);
  checkNotEmpty('bundleIds', filter.bundleIds);
  const feedIds = new Set(filter.feedIds ?? []);
  const bundleIds = [...new Set(filter.bundleIds ?? [])];
  for (const feedId of feedIds) await findFeed(deps, principal, feedId);
  for (const bundleId of bundleIds) await getBundle(deps, principal, bundleId);
  const everything = filter.feedIds === undefined && filter.bundleIds === undefined;

  // The event as this subscriber sees it; undefined when it is not the subscriber's to see. Through
  // bundles only, the covering bundles' keep/block filters apply, as for webhooks.
  const wanted = async (envelope: FeedEventEnvelope): Promise<FeedUpdateEvent | undefined> => {
    if (envelope.accountId !== principal.accountId) return undefined;
    if (everything || feedIds.has(envelope.feedId)) return envelope.event;
    const filters = await coveringBundleFilters(deps, envelope, bundleIds);
    if (filters.length === 0) return undefined;
    return throughBundles(envelope.event, filters, deps.clock.now(), filtersNeedCategories(filters) ? await eventCategories(deps, envelope) : []);
  };
  // A key revoked while subscribed stops receiving at the next event (authenticate.ts: revocation takes effect at once).
  const stillValid = async (): Promise<boolean> => (await deps.keys.get(principal.keyId))?.revokedAt === null;

  // Taken last, so a refused id costs no slot; released however the stream ends (see `releasing`).
  const release = subscriptionSlots.take(principal.accountId, connection);
  const events = new Repeater<FeedUpdateEvent>(async (push, stop) => {
    // One event at a time, in bus order, whatever the lookups cost; the bus itself is not held up.
    let queue = Promise.resolve();
    const unsubscribe = deps.bus.subscribe((envelope) => {
      queue = queue
        .then(async () => {
          const event = await wanted(envelope);
          if (!event) return;
          if (!(await stillValid())) throw new FeedmillError('unauthorized', 'The API key was revoked; subscribe again with a valid key');
          await push(event);
        })
        .catch((error: unknown) => stop(error));
    });
    const end = (): void => stop();
    closing.addEventListener('abort', end, { once: true });
    if (closing.aborted) end();
    await stop;
    unsubscribe();
    closing.removeEventListener('abort', end);
    release();
  }, new SlidingBuffer(backlog));
  return releasing(events, release);
}

/**
 * The stream with its slot given back on `return()`/`throw()` too: a client that completes (or
 * drops its connection) before the first event was pulled never starts the Repeater's executor,
 * whose own release would then never run.
 */
function releasing<T>(events: Repeater<T>, release: Release): AsyncIterableIterator<T> {
  return {
    next: () => events.next(),
    return: (value?: unknown) => {
      release();
      return events.return(value);
    },
    throw: (error?: unknown) => {
      release();
      return events.throw(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
