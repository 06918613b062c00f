import { createHash } from 'node:crypto';
import type { Author } from './item.js';
import type { StoredItem } from './stored-item.js';

/** Fields whose change makes an item "changed"; `changed_fields` names them. */
export const watchedFields = ['title', 'url', 'description', 'thumbnail', 'authors', 'date_published'] as const;
export type WatchedField = (typeof watchedFields)[number];

/**
 * The event id is derived from what changed, not drawn at random: a refresh retried after a crash
 * finds the same change and names it with the same id, so subscribers can drop the duplicate.
 */
export function feedEventId(feedId: string, items: readonly Pick<StoredItem, 'key' | 'contentHash'>[]): string {
  const basis = items
    .map((item) => `${item.key}\u0000${item.contentHash}`)
    .sort()
    .join('\n');
  return `evt_${createHash('sha256').update(`${feedId}\n${basis}`).digest('base64url').slice(0, 24)}`;
}

const sameAuthors = (a: readonly Author[], b: readonly Author[]): boolean =>
  a.length === b.length && a.every((author, index) => author.name === b[index]?.name);

/** Which watched fields differ between the stored and the refreshed version of an item. */
export function changedFields(before: StoredItem, after: StoredItem): WatchedField[] {
  const differs: Record<WatchedField, boolean> = {
    title: before.title !== after.title,
    url: before.url !== after.url,
    description: before.description_html !== after.description_html,
    thumbnail: before.thumbnail !== after.thumbnail,
    authors: !sameAuthors(before.authors, after.authors),
    date_published: before.date_published !== after.date_published,
  };
  return watchedFields.filter((field) => differs[field]);
}
