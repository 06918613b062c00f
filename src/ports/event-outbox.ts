import type { FeedEventEnvelope } from '../domain/feed-event.js';

/**
 * Events are written here before the items they describe, and published from here: a process that
 * dies in between leaves the event to be published at the next start, never lost.
 */
export interface EventOutbox {
  /** Idempotent by event id. */
  save(envelope: FeedEventEnvelope): Promise<void>;
  markPublished(eventId: string, publishedAt: string): Promise<void>;
  /** Oldest first. */
  unpublished(limit: number): Promise<FeedEventEnvelope[]>;
  /** One feed's unpublished events, oldest first: what a refresh that died before publishing left. */
  unpublishedOf(feedId: string): Promise<FeedEventEnvelope[]>;
}
