import type { Bundle } from './bundle.js';
import type { Feed } from './feed.js';
import type { ApiItem, Author } from './item.js';
import { shownUrl } from './safe-url.js';
import type { StoredItem } from './stored-item.js';

/** Spec "Feed", without items (list entries, update response). */
export interface ApiFeed {
  id: string;
  title: string;
  source_url: string;
  rss_feed_url: string;
  description: string;
  icon: string;
}

export interface ApiFeedWithItems extends ApiFeed {
  items: ApiItem[];
}

/** DESIGN.md: `rss_feed_url` = `{FEEDMILL_PUBLIC_URL}/feeds/{id}.xml`. */
export const hostedFeedUrl = (publicUrl: string, feedId: string, extension = 'xml'): string =>
  `${publicUrl.replace(/\/+$/, '')}/feeds/${feedId}.${extension}`;

/** `customAuthor` replaces every item's authors, everywhere items are shown. */
export const shownAuthors = (item: StoredItem, customAuthor: string | null): Author[] =>
  customAuthor === null ? item.authors : [{ name: customAuthor }];

export function toApiItem(item: StoredItem, customAuthor: string | null): ApiItem {
  return {
    url: shownUrl(item.url),
    title: item.title,
    description_text: item.description_text,
    description_html: item.description_html,
    thumbnail: item.thumbnail === null ? null : shownUrl(item.thumbnail) || null,
    authors: shownAuthors(item, customAuthor),
    date_published: item.publishedAt,
  };
}

export function toApiFeed(feed: Feed, publicUrl: string): ApiFeed {
  return {
    id: feed.id,
    title: feed.title,
    source_url: feed.sourceUrl,
    rss_feed_url: hostedFeedUrl(publicUrl, feed.id),
    description: feed.description,
    icon: shownUrl(feed.icon),
  };
}

export function toApiFeedWithItems(feed: Feed, items: readonly StoredItem[], publicUrl: string): ApiFeedWithItems {
  return {
    ...toApiFeed(feed, publicUrl),
    items: items.map((item) => toApiItem(item, feed.settings.customAuthor)),
  };
}

/** Spec "Bundle", without items (list entries, remove-feed response). */
export interface ApiBundle {
  id: string;
  name: string;
  description: string;
  icon: string;
  rss_feed_url: string;
  feeds: string[];
}

export interface ApiBundleWithItems extends ApiBundle {
  items: ApiItem[];
}

export function toApiBundle(bundle: Bundle, publicUrl: string): ApiBundle {
  return {
    id: bundle.id,
    name: bundle.name,
    description: bundle.description,
    icon: shownUrl(bundle.icon),
    rss_feed_url: hostedFeedUrl(publicUrl, bundle.id),
    feeds: bundle.feedIds,
  };
}

/** Each item keeps the custom author of the feed it came from. */
export function toApiBundleWithItems(
  bundle: Bundle,
  items: readonly StoredItem[],
  customAuthors: ReadonlyMap<string, string | null>,
  publicUrl: string,
): ApiBundleWithItems {
  return {
    ...toApiBundle(bundle, publicUrl),
    items: items.map((item) => toApiItem(item, customAuthors.get(item.feedId) ?? null)),
  };
}
