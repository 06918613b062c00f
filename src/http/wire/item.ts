import type { ArticleError, FullTextStatus } from '../../domain/item-article.js';
import type { Author } from '../../domain/item.js';
import type { StoredItem } from '../../domain/stored-item.js';

/** Spec "Feed item", plus full text's fields: the whitelist of what leaves the server for an item. */
export interface ApiItem {
  url: string;
  title: string;
  description_text: string;
  description_html: string;
  thumbnail: string | null;
  authors: Author[];
  date_published: string;
  summary_text: string;
  summary_html: string;
  full_text_status: FullTextStatus;
  full_text_error: ArticleError | null;
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
  // An item read without its feed's full text applied (a filter preview) shows its teaser.
  summary_text: item.fullText?.summaryText ?? item.description_text,
  summary_html: item.fullText?.summaryHtml ?? item.description_html,
  full_text_status: item.fullText?.status ?? 'skipped',
  full_text_error: item.fullText?.error ?? null,
});
