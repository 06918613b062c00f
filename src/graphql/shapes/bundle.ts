import type { Bundle } from '../../domain/bundle.js';
import { hostedFeedUrl } from '../../domain/hosted-urls.js';
import { shownUrl } from '../../domain/safe-url.js';
import type { BundleWithItems } from '../../domain/shown-item.js';
import { bundledItemShape, type ItemShape } from './item.js';

/** A bundle as GraphQL's Bundle resolves it; `items` when the use case loaded them. */
export interface BundleShape {
  id: string;
  name: string;
  description: string;
  icon: string;
  rss_feed_url: string;
  feeds: string[];
  items?: ItemShape[];
}

export const bundleShape = (bundle: Bundle, publicUrl: string): BundleShape => ({
  id: bundle.id,
  name: bundle.name,
  description: bundle.description,
  icon: shownUrl(bundle.icon),
  rss_feed_url: hostedFeedUrl(publicUrl, bundle.id),
  feeds: bundle.feedIds,
});

export const bundleWithItemsShape = ({ bundle, items }: BundleWithItems, publicUrl: string): BundleShape => ({
  ...bundleShape(bundle, publicUrl),
  items: items.map(bundledItemShape),
});
