import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';
import { historyRetentionSeconds } from '../domain/retention.js';
import type { EventPosition } from '../ports/event-outbox.js';
import type { AppDeps } from './deps.js';
import { passingEvent } from './event-filters.js';
import type { EventScope } from './event-scope.js';
import { expectedMessage } from '../domain/field-message.js';

export type EventStreamDeps = Pick<AppDeps, 'outbox' | 'bus' | 'bundles' | 'clock'>;

/** Events read from the store per query while replaying. */
const replayPage = 100;

/**
 * Where to replay from: just after the event `since` names, which must be one of the account's
 * stored events (they are kept 30 days).
 */
export async function positionAfter(
  deps: Pick<AppDeps, 'outbox'>,
  principal: Principal,
  since: string,
  name: string,
): Promise<EventPosition> {
  const envelope = /^evt_[A-Za-z0-9_-]{1,64}$/.test(since) ? await deps.outbox.get(since) : undefined;
  if (!envelope || envelope.accountId !== principal.accountId) {
    throw new FeedmillError(
      'event_not_found',
      expectedMessage(
        name,
        "the id of one of this account's events from the last 30 days (`evt_…`)",
        { value: since },
        'leave it out to start from now',
      ),
    );
  }
  return { occurredAt: envelope.occurredAt, id: envelope.event.id };
}

/** The start of the stored history: events older than this are gone. */
export const oldestKept = (deps: Pick<AppDeps, 'clock'>): EventPosition => ({
  occurredAt: new Date(deps.clock.now().getTime() - historyRetentionSeconds * 1000).toISOString(),
  id: '',
});

/** One page of the stored events in scope after `after`, oldest first, and where the next page starts. */
export async function pastEvents(
  deps: Pick<AppDeps, 'outbox' | 'bundles' | 'clock'>,
  scope: EventScope,
  after: EventPosition,
  limit: number,
): Promise<{ events: FeedEventEnvelope[]; next: EventPosition | null }> {
  const events: FeedEventEnvelope[] = [];
  let position = after;
  // Reads past events out of scope until the page is full or the history ends.
  for (;;) {
    const page = await deps.outbox.history(scope.accountId, position, Math.max(limit, replayPage));
    for (const envelope of page) {
      position = { occurredAt: envelope.occurredAt, id: envelope.event.id };
      const event = await passingEvent(deps, scope, envelope);
      if (event) events.push({ ...envelope, event });
      if (events.length === limit) return { events, next: position };
    }
    if (page.length < Math.max(limit, replayPage)) return { events, next: null };
  }
}

/**
 * The account's events in scope: first the stored ones after `after` (when given), oldest first,
 * then live ones from the bus as they are published — with no gap and no duplicate across the
 * switch. The bus is listened to before the store is read, so an event published during the
 * replay is held; one the replay already gave (stored before it was published) is then skipped
 * by id, as is one the sweep publishes again (see publishFeedEvent). Pulled by the consumer: a
 * replay of any length waits for it. Live events held for a consumer that does not pull are
 * bounded: past `maxHeld` the stream ends with `too_many_connections`, and the client resumes
 * from the last id it got, losing nothing.
 */
export async function* eventStream(
  deps: EventStreamDeps,
  scope: EventScope,
  after: EventPosition | undefined,
  signal: AbortSignal,
  maxHeld = 1_000,
): AsyncGenerator<FeedEventEnvelope, void, undefined> {
  const held: FeedEventEnvelope[] = [];
  let overflowed = false;
  let wake: (() => void) | undefined;
  const unsubscribe = deps.bus.subscribe(scope.accountId, (envelope) => {
    if (held.length >= maxHeld) overflowed = true;
    else held.push(envelope);
    wake?.();
  });
  const onAbort = (): void => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    const told = recentIds(toldKept);
    let position = after;
    while (position && !signal.aborted) {
      const page = await deps.outbox.history(scope.accountId, position, replayPage);
      for (const envelope of page) {
        told.add(envelope.event.id);
        if (signal.aborted) return;
        const event = await passingEvent(deps, scope, envelope);
        if (event) yield { ...envelope, event };
      }
      const last = page.at(-1);
      position = page.length === replayPage && last ? { occurredAt: last.occurredAt, id: last.event.id } : undefined;
    }
    while (!signal.aborted) {
      if (overflowed) {
        throw new FeedmillError(
          'too_many_connections',
          `More than ${maxHeld} events waited for this client; reconnect with the last event id to resume`,
        );
      }
      const envelope = held.shift();
      if (!envelope) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      // Given by the replay, or published again by the sweep (its dispatch was slow or lost).
      if (!told.add(envelope.event.id)) continue;
      const event = await passingEvent(deps, scope, envelope);
      if (event) yield { ...envelope, event };
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * How many event ids a stream remembers having told. The sweep publishes an event again at the
 * earliest a minute after the first time (twice the job lock), so this covers a thousand events
 * per account per minute: about 40 KB per stream.
 */
const toldKept = 1_000;

/** A set of the last `max` ids added; `add` answers whether the id was new. */
function recentIds(max: number): { add(id: string): boolean } {
  const ids = new Set<string>();
  return {
    add(id) {
      if (ids.has(id)) return false;
      ids.add(id);
      // A Set iterates in insertion order: the first one is the oldest.
      if (ids.size > max) ids.delete(ids.values().next().value as string);
      return true;
    },
  };
}
