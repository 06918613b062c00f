import { FeedmillError, isFeedmillError } from '../domain/errors.js';
import { parseSourceUrl } from '../domain/source-url.js';

/**
 * The address a discovery starts from: the rule of any source address (parseSourceUrl), refused as
 * `validation_failed` since here it is a query parameter to correct, not a source that failed.
 */
export function parseDiscoverUrl(raw: string): URL {
  try {
    return parseSourceUrl(raw);
  } catch (error) {
    if (isFeedmillError(error) && error.code === 'invalid_url') throw new FeedmillError('validation_failed', error.message);
    throw error;
  }
}
