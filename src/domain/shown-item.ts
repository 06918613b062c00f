import type { Bundle } from './bundle.js';
import type { Feed } from './feed.js';
import type { Author } from './item.js';
import type { BundledItem } from './bundle-merge.js';
import { shownUrl } from './safe-url.js';
import type { StoredItem } from './stored-item.js';

/** `customAuthor` replaces every item's authors, everywhere items are shown. */
export const shownAuthors = (item: StoredItem, customAuthor: string | null): Author[] =>
  customAuthor === null ? item.authors : [{ name: customAuthor }];

/**
 * An item as every surface shows it: its feed's custom author in place of its authors, and only
 * http(s) addresses (safe-url.ts; a thumbnail that is not one is left out).
 */
export const shownItem = (item: StoredItem, customAuthor: string | null): StoredItem => ({
  ...item,
  url: shownUrl(item.url),
  thumbnail: item.thumbnail === null ? null : shownUrl(item.thumbnail) || null,
  authors: shownAuthors(item, customAuthor),
});

/** A feed and the items shown for it (each a `shownItem`), in the order asked for. */
export interface FeedWithItems {
  feed: Feed;
  items: StoredItem[];
}

/** A bundle and the merged items of its feeds, each shown with its own feed's custom author. */
export interface BundleWithItems {
  bundle: Bundle;
  items: BundledItem[];
}

/** A bundle item as shown: `shownItem`, and its copies' links checked the same way. */
export const shownBundledItem = (item: BundledItem, customAuthor: string | null): BundledItem => ({
  ...shownItem(item, customAuthor),
  duplicates: item.duplicates.map((copy) => ({ feedId: copy.feedId, url: shownUrl(copy.url) })),
});
