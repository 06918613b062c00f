import type { FeedEventEnvelope } from '../webhook-event/feed-update-event.js';

/** Where an event stands in its account's history: ordered by `occurredAt`, then by `id`. */
export interface EventPosition {
  occurredAt: string;
  id: string;
}

/**
 * Events are written here in the same conditional write that stores the items they describe
 * (ItemStore.commit), and published from here: an event counts as published once its dispatch
 * job stored its deliveries, so a process that dies before publishing, or a dispatch job lost
 * with Redis's data, leaves the event to the sweep (publishPendingEvents), never lost.
 */
export interface EventOutbox {
  /** Idempotent by event id. The refresh records events only through ItemStore.commit. */
  save(envelope: FeedEventEnvelope): Promise<void>;
  /** Called by the dispatch job once the event's deliveries and distributions are stored. */
  markPublished(eventId: string, publishedAt: string): Promise<void>;
  /** One event by id, published or not (a dispatch job carries only the id). */
  get(eventId: string): Promise<FeedEventEnvelope | undefined>;
  /** Oldest first. */
  unpublished(limit: number): Promise<FeedEventEnvelope[]>;
  /**
   * The account's stored events strictly after `after` in (occurredAt, id) order, oldest first,
   * published or not; at most `limit`. History is kept 30 days (domain/retention.ts).
   */
  history(accountId: string, after: EventPosition, limit: number): Promise<FeedEventEnvelope[]>;
}
