import { fieldRefusal, type FeedmillError } from './errors.js';
import type { Author } from './item.js';
import { comparableText } from './comparable-text.js';
import { lengthOf } from './field-limits.js';
import { expectedMessage, oneOf, unknownFieldMessage } from './field-message.js';
import { compileUserPattern, patternLimits, storedUserPattern } from './user-pattern.js';

export const filterFields = ['title', 'description', 'author', 'url', 'category', 'date_published'] as const;
export const filterOperators = ['contains', 'not_contains', 'matches', 'older_than', 'newer_than'] as const;
export type FilterField = (typeof filterFields)[number];
export type FilterOperator = (typeof filterOperators)[number];

/** The operators of the date field, and the only ones it takes; the text fields take the others. */
export const dateOperators: readonly FilterOperator[] = ['older_than', 'newer_than'];
const isDateField = (field: FilterField): boolean => field === 'date_published';
/** The fields the text operators apply to, and those operators: every surface states the pairing from these. */
export const textFields: readonly FilterField[] = filterFields.filter((field) => !isDateField(field));
export const textOperators: readonly FilterOperator[] = filterOperators.filter((op) => !dateOperators.includes(op));

/** What a filter judges: an item as shown (custom author applied); `categories` when known. */
export interface FilterSubject {
  url: string;
  title: string;
  description_text: string;
  authors: readonly Author[];
  date_published: string;
  categories?: readonly string[];
}

/** An age: a whole number and a unit, minutes, hours, days or weeks (`90m`, `12h`, `7d`, `2w`). */
const agePattern = /^([1-9]\d{0,5})([mhdw])$/;
export const agePatternSource = agePattern.source;
const unitSeconds: Record<string, number> = { m: 60, h: 3_600, d: 86_400, w: 604_800 };
const ageSeconds = (value: string): number => {
  const match = agePattern.exec(value);
  return match ? Number(match[1]) * (unitSeconds[match[2] ?? ''] ?? 0) : Number.NaN;
};

export interface FilterCondition {
  field: FilterField;
  op: FilterOperator;
  value: string;
}

/**
 * The filter language, one for webhooks and for the keep/block filters of feeds and bundles: a
 * condition, or `all` / `any` of filters (limits in `filterLimits`). On the text fields (`title`,
 * `description`, `author`, `url`, `category` — any of the item's categories), `contains` /
 * `not_contains` compare case-insensitively and `matches` is a case-insensitive regular expression
 * in RE2's syntax, matched in linear time (see `compileUserPattern`). On `date_published`,
 * `older_than` / `newer_than` take an age (`7d`) measured from the moment the filter is applied.
 */
export type ItemFilter = FilterCondition | { all: ItemFilter[] } | { any: ItemFilter[] };

/**
 * The filter language's limits, which the REST schema publishes too: a group holds at most 8 filters,
 * a group inside a group at most 4, and nothing nests deeper, so a filter has at most 32 conditions.
 * Each limit is one a JSON Schema can state, so the published contract is exactly the rule.
 */
export const filterLimits = { groupSizes: [8, 4], maxPattern: patternLimits.maxLength, maxValue: 500 } as const;
const maxDepth = filterLimits.groupSizes.length;
// Matching never reads more than this of a field, bounding the work per item.
const maxText = 10_000;

const expected = (path: string, expectation: string, got: { value: unknown } | { said: string }): FeedmillError =>
  fieldRefusal(path, expectedMessage(path, expectation, got));

/** Checks a filter from a request body; the message names the path of the first problem. */
export function parseFilter(value: unknown, path = 'filters', depth = 0): ItemFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw expected(path, 'a condition, or an object with `all` or `any`', { value });
  const record = value as Record<string, unknown>;
  for (const group of ['all', 'any'] as const) {
    if (group in record) {
      const list = record[group];
      const others = Object.keys(record).filter((key) => key !== group);
      if (others.length > 0) throw fieldRefusal(path, unknownFieldMessage(path, others, `\`${group}\` alone`));
      const most = filterLimits.groupSizes[depth] ?? 0;
      if (most === 0) throw expected(path, `a condition (groups nest at most ${maxDepth} deep)`, { said: `a group ${depth + 1} deep` });
      if (!Array.isArray(list) || list.length === 0 || list.length > most)
        throw expected(`${path}.${group}`, `an array of 1 to ${most} filters`, { value: list });
      const parsed = list.map((entry, index) => parseFilter(entry, `${path}.${group}[${index}]`, depth + 1));
      return group === 'all' ? { all: parsed } : { any: parsed };
    }
  }
  const { field, op, value: text, ...rest } = record;
  if (Object.keys(rest).length > 0)
    throw fieldRefusal(path, unknownFieldMessage(path, Object.keys(rest), '`field`, `op` and `value`, or `all` / `any`'));
  if (!(filterFields as readonly unknown[]).includes(field)) throw expected(`${path}.field`, oneOf(filterFields), { value: field });
  if (!(filterOperators as readonly unknown[]).includes(op)) throw expected(`${path}.op`, oneOf(filterOperators), { value: op });
  if (typeof text !== 'string' || text.length === 0 || lengthOf(text) > filterLimits.maxValue) {
    throw expected(
      `${path}.value`,
      `a string of 1 to ${filterLimits.maxValue} characters`,
      typeof text === 'string' && text !== '' ? { said: `${lengthOf(text)} characters` } : { value: text },
    );
  }
  const checked = { field: field as FilterField, op: op as FilterOperator, value: text };
  if (isDateField(checked.field) !== dateOperators.includes(checked.op)) {
    throw isDateField(checked.field)
      ? expected(`${path}.op`, `${oneOf(dateOperators)} (the operators of \`date_published\`)`, { value: checked.op })
      : expected(`${path}.field`, `\`date_published\` (the only field ${oneOf(dateOperators)} apply to)`, { value: checked.field });
  }
  if (isDateField(checked.field) && Number.isNaN(ageSeconds(text))) {
    throw expected(`${path}.value`, 'an age such as 90m, 12h, 7d or 2w', { value: text });
  }
  if (op === 'matches') compileUserPattern(text, `${path}.value`);
  return checked;
}

/** The texts a field holds: one for most fields, one per category for `category`. */
const fieldTexts = (item: FilterSubject, field: Exclude<FilterField, 'date_published'>): string[] => {
  if (field === 'category') return (item.categories ?? []).map((category) => comparableText(category.slice(0, maxText)));
  const text =
    field === 'author'
      ? item.authors.map((author) => author.name).join('\n')
      : field === 'description'
        ? item.description_text
        : item[field];
  return [comparableText(text.slice(0, maxText))];
};

function conditionHolds(item: FilterSubject, condition: FilterCondition, now: Date): boolean {
  if (condition.field === 'date_published') {
    const age = (now.getTime() - Date.parse(item.date_published)) / 1000;
    return condition.op === 'older_than' ? age > ageSeconds(condition.value) : age <= ageSeconds(condition.value);
  }
  // `category`: `contains` / `matches` hold when one category does; `not_contains` when none contains.
  const texts = fieldTexts(item, condition.field);
  if (condition.op === 'matches') {
    const pattern = storedUserPattern(condition.value);
    return texts.some((text) => pattern.test(text));
  }
  const value = comparableText(condition.value).toLowerCase();
  const found = texts.some((text) => text.toLowerCase().includes(value));
  return condition.op === 'contains' ? found : !found;
}

/** How a filter judged an item: whether it matched, and the condition that decided (with its path). */
export interface FilterJudgement {
  matched: boolean;
  decidedBy: { path: string; condition: FilterCondition };
}

/**
 * Judges an item, naming the condition that decided: the first to fail an `all` or to hold in an
 * `any`; when every condition of an `all` holds (or none of an `any`), the last one looked at.
 */
export function judgeFilter(item: FilterSubject, filter: ItemFilter, now: Date, path = 'filters'): FilterJudgement {
  if ('all' in filter || 'any' in filter) {
    const [group, list] = 'all' in filter ? (['all', filter.all] as const) : (['any', filter.any] as const);
    let last: FilterJudgement | undefined;
    for (const [index, inner] of list.entries()) {
      last = judgeFilter(item, inner, now, `${path}.${group}[${index}]`);
      if (last.matched === (group === 'any')) return last;
    }
    // parseFilter refuses empty groups, so `last` is set.
    return last as FilterJudgement;
  }
  return { matched: conditionHolds(item, filter, now), decidedBy: { path, condition: filter } };
}

/** True when the item passes the filter. */
export const itemMatches = (item: FilterSubject, filter: ItemFilter, now: Date): boolean => judgeFilter(item, filter, now).matched;

/** True when a filter names the field anywhere (`category` needs the stored item; dates need the clock). */
export function filterUses(filter: ItemFilter, field: FilterField): boolean {
  if ('all' in filter) return filter.all.some((inner) => filterUses(inner, field));
  if ('any' in filter) return filter.any.some((inner) => filterUses(inner, field));
  return filter.field === field;
}
