import type { ItemSort as Sort } from '../../domain/feed.js';
import { builder } from '../builder.js';

const sortDocs: Record<Sort, { description: string }> = {
  last_added: { description: 'Newest first by when feedmill first saw each item.' },
  date: { description: 'Newest first by the date each item was published.' },
};

/** The order of items: when they were first seen (`last_added`) or their publication date. */
export const ItemSort = builder.enumType('ItemSort', {
  description: 'The order of items, newest first: `last_added` (when feedmill first saw them) or `date` (when they were published).',
  values: sortDocs,
});
