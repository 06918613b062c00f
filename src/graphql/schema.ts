import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
// Each import adds its types and fields to the builder; the order only matters to Pothos refs.
import './types/root.js';
import './types/item-sort.js';
import './types/item-filter.js';
import './types/deletion-result.js';
import './types/feed-item.js';
import './types/feed-status.js';
import './types/discovery.js';
import './types/feed.js';
import './types/feed-settings.js';
import './types/refresh-result.js';
import './types/bundle.js';
import './types/bundle-settings.js';
import './types/feed-update-event.js';
import './types/webhook.js';

export const schema = builder.toSchema();

/** The SDL checked in as schema/schema.graphql: sorted, so a moved field is not a diff. */
export function printSortedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
