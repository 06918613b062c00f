/**
 * The one phrasing of a refused value, shared by the schema validation of every route and by the
 * use cases behind REST, GraphQL, the dashboard and the CLI:
 *
 *   Expected `sort` to be `last_added` or `date`, got "bogus"
 *
 * A field is named the way the client wrote it (`filters.any[0].op`), what was expected is said in
 * words, and what arrived is shown short enough to read in a log line.
 */

const maxShown = 80;

/** What arrived, for the end of a message: a short value as JSON, or its kind when it is a structure. */
export function arrived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value))
    return value.length === 0 ? 'an empty array' : `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    return keys.length === 0
      ? 'an empty object'
      : `an object with ${keys
          .slice(0, 5)
          .map((key) => `\`${key}\``)
          .join(', ')}${keys.length > 5 ? ', …' : ''}`;
  }
  if (value === '') return 'an empty string';
  // JSON tells a string from a number (`"5"` from `5`), which is often the whole mistake.
  if (typeof value === 'string' && value.length > maxShown) return `${JSON.stringify(value.slice(0, maxShown)).slice(0, -1)}…"`;
  // A function or a symbol (never from a request) has no JSON; its kind is all there is to say.
  return JSON.stringify(value) ?? `a ${typeof value}`;
}

/** `a`, `b` or `c` — the allowed values of a field. */
export function oneOf(values: readonly unknown[]): string {
  const shown = values.map((value) => `\`${String(value)}\``);
  return shown.length <= 1 ? (shown[0] ?? 'nothing') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1) ?? ''}`;
}

/** A field by its name (`filters.any[0].op`), or a whole part of a request in words ("the request body"). */
export type Subject = string | { whole: string };

const said = (subject: Subject): string => (typeof subject === 'string' ? `\`${subject}\`` : subject.whole);

/**
 * "Expected `field` to be EXPECTATION, got ARRIVAL", with an optional hint on what to do next.
 * `got` is either the value itself (shown by `arrived`) or an already worded arrival such as
 * "600 characters".
 */
export function expectedMessage(subject: Subject, expectation: string, got: { value: unknown } | { said: string }, hint?: string): string {
  const arrival = 'said' in got ? got.said : arrived(got.value);
  return `Expected ${said(subject)} to be ${expectation}, got ${arrival}${hint ? `; ${hint}` : ''}`;
}

/** A field nobody asked for: refused rather than dropped, so a typo never passes silently. */
export function unknownFieldMessage(subject: Subject, unknown: readonly string[], known: string): string {
  const names = unknown.map((key) => `\`${key}\``).join(', ');
  return `Unknown field${unknown.length === 1 ? '' : 's'} ${names} in ${typeof subject === 'string' ? said(subject) : subject.whole}; expected ${known}`;
}
