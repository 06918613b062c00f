import { resolveEventScope } from '../app/event-scope.js';
import { eventStream, positionAfter } from '../app/event-stream.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedUpdateEvent } from '../webhook-event/feed-update-event.js';
import type { GraphqlContext } from './builder.js';

export interface FeedUpdateFilter {
  feedIds?: readonly string[];
  bundleIds?: readonly string[];
  /** Replay the stored events after this one first (`evt_…`, the last 30 days). */
  since?: string;
}

/**
 * The `feedUpdate` stream of one subscriber. Every id is checked before the stream starts (another
 * account's feed or bundle is not found, never silently empty); which events it gets is the one
 * scope rule (app/event-scope.ts) that webhooks and `GET /v1/events` use. With `since`, the
 * stored events after it come first, then live ones, with no gap and no duplicate between them.
 */
export async function feedUpdates(
  { deps, principal, closing, subscriptionSlots, connection }: GraphqlContext,
  filter: FeedUpdateFilter,
): Promise<AsyncIterableIterator<FeedUpdateEvent>> {
  const scope = await resolveEventScope(deps, principal, filter, { feeds: 'feedIds', bundles: 'bundleIds' });
  const after = filter.since === undefined ? undefined : await positionAfter(deps, principal, filter.since, 'since');
  // A key revoked while subscribed stops receiving at the next event (authenticate.ts: revocation takes effect at once).
  const stillValid = async (): Promise<boolean> => (await deps.keys.get(principal.keyId))?.revokedAt === null;

  // Taken last, so a refused id costs no slot; released however the stream ends.
  const release = subscriptionSlots.take(principal.accountId, connection);
  const stop = new AbortController();
  const end = (): void => stop.abort();
  closing.addEventListener('abort', end, { once: true });
  if (closing.aborted) end();
  const events = eventStream(deps, scope, after, stop.signal);
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    stop.abort();
    closing.removeEventListener('abort', end);
    release();
  };
  const iterator: AsyncIterableIterator<FeedUpdateEvent> = {
    async next() {
      try {
        const step = await events.next();
        if (step.done) {
          finish();
          return { done: true, value: undefined };
        }
        if (!(await stillValid())) throw new FeedmillError('unauthorized', 'The API key was revoked; subscribe again with a valid key');
        return { done: false, value: step.value.event };
      } catch (error) {
        finish();
        await events.return();
        throw error;
      }
    },
    // A client that completes or drops mid-wait: the abort wakes the stream, which then ends.
    async return() {
      finish();
      await events.return();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      finish();
      await events.return();
      throw error;
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
