import type { ItemSort as Sort } from '../../domain/feed.js';
import { builder } from '../builder.js';
import { upperCaseValues } from './enum-values.js';

const sortDocs: Record<Sort, string> = {
  last_added: 'Newest first by when feedmill first saw each item.',
  date: 'Newest first by the date each item was published.',
};

/** The order of items: when they were first seen (`LAST_ADDED`) or their publication date. */
export const ItemSort = builder.enumType('ItemSort', {
  description: 'The order of items, newest first: `LAST_ADDED` (when feedmill first saw them) or `DATE` (when they were published).',
  values: upperCaseValues(sortDocs),
});
