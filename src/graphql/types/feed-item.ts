import type { Author as ApiAuthor } from '../../domain/item.js';
import { builder } from '../builder.js';
import type { ItemShape } from '../shapes/item.js';

// Field names are the spec's wire names, the same as REST and webhook bodies, so one client type
// reads all three.

/** Spec "Author". */
export const Author = builder.objectRef<ApiAuthor>('Author').implement({
  fields: (t) => ({ name: t.exposeString('name') }),
});

/** Spec "Feed item". */
export const FeedItem = builder.objectRef<ItemShape>('FeedItem').implement({
  description: 'An item (article) of a feed or bundle.',
  fields: (t) => ({
    url: t.exposeString('url'),
    title: t.exposeString('title'),
    description_text: t.exposeString('description_text'),
    description_html: t.exposeString('description_html', { description: 'Sanitised HTML; empty when the item has no description.' }),
    thumbnail: t.exposeString('thumbnail', { nullable: true }),
    authors: t.field({
      type: [Author],
      description: "Empty when the item names no author; the feed's `customAuthor` when it has one.",
      resolve: (item) => item.authors,
    }),
    date_published: t.exposeString('date_published', { description: 'ISO 8601 UTC with milliseconds.' }),
  }),
});
