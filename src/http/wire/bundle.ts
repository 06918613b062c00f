import type { Bundle } from '../../domain/bundle.js';
import { hostedFeedUrl } from '../../domain/hosted-urls.js';
import { shownUrl } from '../../domain/safe-url.js';
import type { BundleWithItems } from '../../domain/shown-item.js';
import { toApiItem, type ApiItem } from './item.js';

/** Spec "Bundle", without items (list entries, remove-feed response). */
export interface ApiBundle {
  id: string;
  name: string;
  description: string;
  icon: string;
  rss_feed_url: string;
  feeds: string[];
}

/** A bundle item: spec "Feed item", plus the other copies of its article in the bundle's feeds. */
export interface ApiBundleItem extends ApiItem {
  duplicates: { feed_id: string; url: string }[];
}

export interface ApiBundleWithItems extends ApiBundle {
  items: ApiBundleItem[];
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

export function toApiBundleWithItems({ bundle, items }: BundleWithItems, publicUrl: string): ApiBundleWithItems {
  return {
    ...toApiBundle(bundle, publicUrl),
    items: items.map((item) => ({
      ...toApiItem(item),
      duplicates: item.duplicates.map((copy) => ({ feed_id: copy.feedId, url: copy.url })),
    })),
  };
}
