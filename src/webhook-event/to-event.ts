import type { Feed } from '../domain/feed.js';
import { hostedFeedUrl } from '../domain/hosted-urls.js';
import { shownUrl } from '../domain/safe-url.js';
import { shownAuthors } from '../domain/shown-item.js';
import type { StoredItem } from '../domain/stored-item.js';
import type { EventFeed, EventItem } from './feed-update-event.js';

/** The spec's "Feed" fields of a feed, as an event carries them (and a REST feed starts with). */
export function toEventFeed(feed: Feed, publicUrl: string): EventFeed {
  return {
    id: feed.id,
    title: feed.title,
    source_url: feed.sourceUrl,
    rss_feed_url: hostedFeedUrl(publicUrl, feed.id),
    description: feed.description,
    icon: shownUrl(feed.icon),
  };
}

/** An item as events (and the filters that judge them) see it: the feed's custom author applied. */
export const eventItem = (item: StoredItem, customAuthor: string | null): EventItem => ({
  url: item.url,
  title: item.title,
  description_text: item.description_text,
  thumbnail: item.thumbnail,
  date_published: item.publishedAt,
  authors: shownAuthors(item, customAuthor),
});
