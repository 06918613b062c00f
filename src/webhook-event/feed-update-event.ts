import type { WatchedField } from '../domain/feed-event.js';
import type { Author } from '../domain/item.js';

// Why this module is neither src/domain nor one surface's wire/: the spec's "Webhook event object"
// is a wire format (JSON field names of the spec), so it stays out of the domain; but it is not one
// surface's either. A refresh records it once (app, in the outbox, with its items), and then every
// way out sends that same record: webhook bodies (jobs, app/deliver-webhook), the SSE event stream,
// GraphQL subscriptions, and the outbox and bus that carry it (ports, adapters). Built once, stored
// as sent, so every retry and every replay carries the same bytes and the same id. So it lives here,
// importing only domain types, and .dependency-cruiser.cjs lets those layers import it.

/** Spec "Feed", its own fields alone: an event's `feed` (the REST feed begins with the same fields). */
export interface EventFeed {
  id: string;
  title: string;
  source_url: string;
  rss_feed_url: string;
  description: string;
  icon: string;
}

/** Spec "Webhook event object", `data.items_*` entries. */
export interface EventItem {
  url: string;
  title: string;
  description_text: string;
  thumbnail: string | null;
  date_published: string;
  authors: Author[];
}

export interface ChangedEventItem extends EventItem {
  changed_fields: WatchedField[];
}

/** Spec "Webhook event object": the one event type, `feed_update`. */
export interface FeedUpdateEvent {
  id: string;
  type: 'feed_update';
  feed: EventFeed;
  data: {
    items_new: EventItem[];
    items_changed: ChangedEventItem[];
  };
}

/**
 * What travels on the event bus and is kept in the outbox: the event, whose it is, and what
 * dispatch needs to judge its items (routing and filtering, never sent).
 */
export interface FeedEventEnvelope {
  accountId: string;
  feedId: string;
  /** ISO time the refresh found the change. */
  occurredAt: string;
  event: FeedUpdateEvent;
  /**
   * Keys of the items the event announces, so that a refresh after a crash can tell which of the
   * changes it finds an unpublished event already covers. Not sent to subscribers. Absent only
   * in envelopes recorded before it was added.
   */
  itemKeys?: string[];
  /**
   * The categories of the items the event announces, in event order (new items, then changed):
   * filters judge `category`, which the spec's event object does not carry. Not sent to
   * subscribers. Absent in envelopes recorded before it was added: their items have none.
   */
  itemCategories?: string[][];
}
