import { itemSorts } from '../../domain/feed.js';
import { builder } from '../builder.js';

/** The order of items: when they were first seen (`last_added`) or their publication date. */
export const ItemSort = builder.enumType('ItemSort', {
  description: 'The order of items, newest first: `last_added` (when feedmill first saw them) or `date` (when they were published).',
  values: itemSorts,
});
