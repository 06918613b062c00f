import { fieldRefusal } from './errors.js';
import { expectedMessage } from './field-message.js';

/**
 * How long each editable text may be (the spec leaves them open). The use cases enforce them, so
 * REST, GraphQL and the dashboard refuse alike; the REST schema publishes the same numbers.
 */
export const feedFieldLimits = { title: 500, description: 5000, icon: 2048, url: 2048, customAuthor: 200 } as const;
export const bundleFieldLimits = { name: 200, description: 5000, icon: 2048, feeds: 500 } as const;

/** Length in characters (code points), as JSON Schema's `maxLength` counts. */
export const lengthOf = (text: string): number => [...text].length;

/** A bundle's members: the REST schema's `maxItems`, checked by the use cases so GraphQL and PUT refuse alike. */
export function checkMemberCount(count: number): void {
  if (count > bundleFieldLimits.feeds) {
    throw fieldRefusal('feeds', expectedMessage('feeds', `a list of at most ${bundleFieldLimits.feeds} feeds`, { said: `${count} feeds` }));
  }
}

export function checkLength(field: string, value: string | undefined, max: number, min = 0): void {
  if (value === undefined) return;
  const length = lengthOf(value);
  if (length < min || length > max) {
    const range = min > 0 ? `${min} to ${max} characters` : `at most ${max} characters`;
    throw fieldRefusal(field, expectedMessage(field, `a string of ${range}`, { said: `${length} characters` }));
  }
}
