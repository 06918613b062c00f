import type { ParsedItem } from '../../domain/item.js';
import type { FullTextView } from '../../domain/item-article.js';
import { fullTextBadge } from './full-text.js';
import { html, type Html } from '../html.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A time as people read it (UTC, said so), in a <time> element machines can read too. */
export function time(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? html`${iso}` : html`<time datetime="${iso}">${dateFormat.format(date)} UTC</time>`;
}

/** Only web addresses become links: an item's URL comes from someone else's document. */
const linkable = (url: string): boolean => /^https?:\/\//i.test(url);

/**
 * What a list shows of an item: stored ones (shown items, dated by `publishedAt`) and previewed
 * ones (ParsedItem, dated by the source, if at all) alike.
 */
export type ListedItem = Pick<ParsedItem, 'url' | 'title' | 'authors' | 'date_published'> & {
  publishedAt?: string;
  fullText?: FullTextView;
};

/**
 * A feed's or bundle's items; `id` makes the list a live region the script can swap. With
 * `fullText`, each item says whether its article is still pending or failed, and why.
 */
export function itemList(id: string, items: readonly ListedItem[], label = 'Items', fullText = false): Html {
  if (items.length === 0) return html`<p id="${id}" data-live class="muted">No items yet.</p>`;
  const rows = items.map((item) => {
    const title = item.title || item.url || '(untitled)';
    const authors = item.authors
      .map((author) => author.name)
      .filter(Boolean)
      .join(', ');
    return html`<li>${linkable(item.url) ? html`<a href="${item.url}" rel="noopener noreferrer">${title}</a>` : title}
<div class="item-meta">${time(item.publishedAt ?? item.date_published)}${authors ? html` · ${authors}` : ''}${fullText ? fullTextBadge(item.fullText) : ''}</div></li>`;
  });
  return html`<ol id="${id}" data-live class="items" aria-label="${label}">${rows}</ol>`;
}
