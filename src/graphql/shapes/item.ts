import type { Author } from '../../domain/item.js';
import type { BundledItem } from '../../domain/bundle-merge.js';
import type { StoredItem } from '../../domain/stored-item.js';

/** Spec "Feed item", as GraphQL shows it: the field names of REST and webhook bodies, so one client type reads all three. */
export interface ItemShape {
  url: string;
  title: string;
  description_text: string;
  description_html: string;
  thumbnail: string | null;
  authors: Author[];
  date_published: string;
  /** Only on a bundle's items: the other copies of the article it shows once. */
  duplicates?: DuplicateShape[];
}

export interface DuplicateShape {
  feed_id: string;
  url: string;
}

/** An item a use case already made a shown item (domain/shown-item.ts). */
export const itemShape = (item: StoredItem): ItemShape => ({
  url: item.url,
  title: item.title,
  description_text: item.description_text,
  description_html: item.description_html,
  thumbnail: item.thumbnail,
  authors: item.authors,
  date_published: item.publishedAt,
});

/** A bundle's item: the item and the copies it stands for. */
export const bundledItemShape = (item: BundledItem): ItemShape => ({
  ...itemShape(item),
  duplicates: item.duplicates.map((copy) => ({ feed_id: copy.feedId, url: copy.url })),
});
