import { FeedmillError } from '../domain/errors.js';

/**
 * The filter language is a recursive union (domain/item-filter.ts); GraphQL has no such input type,
 * so filters travel as the same JSON the REST body carries.
 */
export function parseFiltersJson(text: string | null | undefined): unknown {
  if (text === undefined || text === null) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FeedmillError('validation_failed', `Expected \`filters\` to be JSON, got \`${text.slice(0, 80)}\``);
  }
}
