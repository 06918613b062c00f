import type { ArticleError, FullTextStatus } from '../../domain/item-article.js';
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
  /** Full text: the teaser, and how the article went (domain/full-text.ts). */
  summaryHtml: string;
  summaryText: string;
  fullTextStatus: FullTextStatus;
  fullTextError: ArticleError | null;
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
  // An item read without its feed's full text applied shows its teaser.
  summaryHtml: item.fullText?.summaryHtml ?? item.description_html,
  summaryText: item.fullText?.summaryText ?? item.description_text,
  fullTextStatus: item.fullText?.status ?? 'skipped',
  fullTextError: item.fullText?.error ?? null,
});

/** A bundle's item: the item and the copies it stands for. */
export const bundledItemShape = (item: BundledItem): ItemShape => ({
  ...itemShape(item),
  duplicates: item.duplicates.map((copy) => ({ feed_id: copy.feedId, url: copy.url })),
});
