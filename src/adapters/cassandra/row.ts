import { types } from 'cassandra-driver';

/*
 * Typed reads of a driver row. The driver types every column `any`; these check what arrived,
 * so a schema that drifted from the code fails loudly, naming the column.
 */

const wrong = (name: string, expected: string, value: unknown): Error =>
  new Error(`Expected column \`${name}\` to be ${expected}, got ${value === null ? 'null' : typeof value}`);

export function text(row: types.Row, name: string): string {
  const value: unknown = row.get(name);
  if (typeof value !== 'string') throw wrong(name, 'text', value);
  return value;
}

export function optionalText(row: types.Row, name: string): string | null {
  const value: unknown = row.get(name);
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw wrong(name, 'text or null', value);
  return value;
}

export function int(row: types.Row, name: string): number {
  const value: unknown = row.get(name);
  if (typeof value !== 'number') throw wrong(name, 'an int', value);
  return value;
}

/** count(*) arrives as a 64-bit Long. */
export function count(row: types.Row | undefined, name = 'count'): number {
  const value: unknown = row?.get(name);
  if (!(value instanceof types.Long)) throw wrong(name, 'a bigint', value);
  return value.toNumber();
}

export function timeUuid(row: types.Row, name: string): types.TimeUuid {
  const value: unknown = row.get(name);
  if (!(value instanceof types.TimeUuid)) throw wrong(name, 'a timeuuid', value);
  return value;
}

/** Cassandra stores an empty collection as null. */
export function textList(row: types.Row, name: string): string[] {
  const value: unknown = row.get(name);
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) throw wrong(name, 'a list of text', value);
  return value;
}

/** An ISO 8601 time as a `timestamp` value; refuses what does not parse, before anything is written. */
export function instant(iso: unknown, what: string): Date {
  const date = typeof iso === 'string' ? new Date(iso) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new Error(`Expected ${what} to be an ISO 8601 time, got \`${String(iso)}\``);
  return date;
}
