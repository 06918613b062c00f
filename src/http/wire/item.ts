import type { Author } from '../../domain/item.js';
import type { StoredItem } from '../../domain/stored-item.js';

/** Spec "Feed item" exactly: the whitelist of what leaves the server for an item. */
export interface ApiItem {
  url: string;
  title: string;
  description_text: string;
  description_html: string;
  thumbnail: string | null;
  authors: Author[];
  date_published: string;
}

/** An item the use case already made a shown item (domain/shown-item.ts), in the spec's fields. */
export const toApiItem = (item: StoredItem): ApiItem => ({
  url: item.url,
  title: item.title,
  description_text: item.description_text,
  description_html: item.description_html,
  thumbnail: item.thumbnail,
  authors: item.authors,
  date_published: item.publishedAt,
});
