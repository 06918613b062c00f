import type { Author } from '../../domain/item.js';
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
