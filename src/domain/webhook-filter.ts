import { FeedmillError } from './errors.js';
import type { EventItem } from './feed-event.js';

export const filterFields = ['title', 'description', 'author', 'url'] as const;
export const filterOperators = ['contains', 'not_contains', 'matches'] as const;
export type FilterField = (typeof filterFields)[number];
export type FilterOperator = (typeof filterOperators)[number];

export interface FilterCondition {
  field: FilterField;
  op: FilterOperator;
  value: string;
}

/**
 * The filter language: a condition, or `all` / `any` of filters (limits in `filterLimits`).
 * `contains` / `not_contains` compare case-insensitively; `matches` is a regular expression
 * (case-insensitive) from a safe subset that runs in linear time (see `checkPattern`).
 */
export type WebhookFilter = FilterCondition | { all: WebhookFilter[] } | { any: WebhookFilter[] };

/**
 * The filter language's limits, which the REST schema publishes too: a group holds at most 8 filters,
 * a group inside a group at most 4, and nothing nests deeper, so a filter has at most 32 conditions.
 * Each limit is one a JSON Schema can state, so the published contract is exactly the rule.
 */
export const filterLimits = { groupSizes: [8, 4], maxPattern: 200, maxValue: 500 } as const;
const maxDepth = filterLimits.groupSizes.length;
const { maxPattern } = filterLimits;
/** Length in characters (code points), as JSON Schema's `maxLength` counts, not UTF-16 units. */
const lengthOf = (text: string): number => [...text].length;
// Matching never reads more than this of a field, bounding the work per item.
const maxText = 10_000;

const invalid = (path: string, why: string): FeedmillError => new FeedmillError('validation_failed', `\`${path}\`: ${why}`);

/**
 * Backreferences and lookarounds can take exponential time in a backtracking engine, and so can a
 * quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|a)*`); patterns
 * with any of them are refused, which leaves expressions that match in linear time.
 */
export function checkPattern(pattern: string, path: string): RegExp {
  if (lengthOf(pattern) > maxPattern) throw invalid(path, `expected a pattern of at most ${maxPattern} characters, got ${lengthOf(pattern)}`);
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(pattern)) throw invalid(path, 'backreferences and lookarounds are not allowed in `matches`');
  const isQuantifier = (char: string | undefined): boolean => char === '*' || char === '+' || char === '?' || char === '{';
  // For each open group: does it hold a quantifier or an alternation?
  const groups: boolean[] = [];
  let risky = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') i += 1;
    else if (char === '[') {
      // A character class is one atom: skip to its end.
      for (i += 1; i < pattern.length && pattern[i] !== ']'; i += 1) if (pattern[i] === '\\') i += 1;
    } else if (char === '(') {
      groups.push(risky);
      risky = false;
    } else if (char === ')') {
      const inner: boolean = risky;
      risky = (groups.pop() ?? false) || inner;
      if (inner && isQuantifier(pattern[i + 1])) {
        throw invalid(path, 'a repeated group may not contain another quantifier or `|` (it can take exponential time)');
      }
      if (isQuantifier(pattern[i + 1])) risky = true;
    } else if (char === '|' || (char !== undefined && isQuantifier(char))) risky = true;
  }
  try {
    return new RegExp(pattern, 'iu');
  } catch (error) {
    throw invalid(path, `not a valid regular expression (${(error as Error).message})`);
  }
}

/** Checks a filter from a request body; the message names the path of the first problem. */
export function parseFilter(value: unknown, path = 'filters', depth = 0): WebhookFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'expected an object');
  const record = value as Record<string, unknown>;
  for (const group of ['all', 'any'] as const) {
    if (group in record) {
      const list = record[group];
      if (Object.keys(record).length !== 1) throw invalid(path, `\`${group}\` stands alone in its object`);
      const most = filterLimits.groupSizes[depth] ?? 0;
      if (most === 0) throw invalid(`${path}.${group}`, `groups nest at most ${maxDepth} deep`);
      if (!Array.isArray(list) || list.length === 0 || list.length > most) throw invalid(`${path}.${group}`, `expected an array of 1 to ${most} filters`);
      const parsed = list.map((entry, index) => parseFilter(entry, `${path}.${group}[${index}]`, depth + 1));
      return group === 'all' ? { all: parsed } : { any: parsed };
    }
  }
  const { field, op, value: text, ...rest } = record;
  if (Object.keys(rest).length > 0) throw invalid(path, `unknown keys ${Object.keys(rest).join(', ')}; expected field, op, value, or all / any`);
  if (!(filterFields as readonly unknown[]).includes(field)) throw invalid(`${path}.field`, `expected one of ${filterFields.join(', ')}, got \`${String(field)}\``);
  if (!(filterOperators as readonly unknown[]).includes(op)) throw invalid(`${path}.op`, `expected one of ${filterOperators.join(', ')}, got \`${String(op)}\``);
  if (typeof text !== 'string' || text.length === 0 || lengthOf(text) > filterLimits.maxValue) {
    throw invalid(`${path}.value`, `expected a string of 1 to ${filterLimits.maxValue} characters`);
  }
  if (op === 'matches') checkPattern(text, `${path}.value`);
  return { field: field as FilterField, op: op as FilterOperator, value: text };
}

const fieldText = (item: EventItem, field: FilterField): string => {
  const text = field === 'author' ? item.authors.map((author) => author.name).join('\n') : field === 'description' ? item.description_text : item[field];
  return text.slice(0, maxText);
};

/** True when the item passes the filter. */
export function itemMatches(item: EventItem, filter: WebhookFilter): boolean {
  if ('all' in filter) return filter.all.every((inner) => itemMatches(item, inner));
  if ('any' in filter) return filter.any.some((inner) => itemMatches(item, inner));
  const text = fieldText(item, filter.field);
  if (filter.op === 'matches') return checkPattern(filter.value, 'filters').test(text);
  const found = text.toLowerCase().includes(filter.value.toLowerCase());
  return filter.op === 'contains' ? found : !found;
}
