import {
  dateOperators,
  textFields,
  filterFields,
  filterLimits,
  filterOperators,
  type FilterCondition,
  type ItemFilter,
} from '../domain/item-filter.js';
import type { SelectChoice } from './forms.js';
import { fieldRefusal } from '../domain/errors.js';
import type { FormBody } from './request.js';
import { fieldOf, valuesOf } from './request.js';

/**
 * The filter as the form holds it. The builder writes the common shape — conditions joined by
 * "all" or "any" — and anything deeper is written as JSON, the language the API takes.
 */
export interface FilterForm {
  mode: 'builder' | 'json';
  match: 'all' | 'any';
  /** As typed: rows with an empty value are ignored. */
  conditions: { field: string; op: string; value: string }[];
  json: string;
}

/** A group holds at most this many filters (the filter language's own limit). */
export const maxConditions = filterLimits.groupSizes[0];

const isCondition = (filter: ItemFilter): filter is FilterCondition => 'field' in filter;

/** The form for a stored filter: the builder when it can show it, JSON otherwise. */
export function filterFormOf(filter: ItemFilter | null): FilterForm {
  const json = filter ? JSON.stringify(filter, null, 2) : '';
  if (filter === null) return { mode: 'builder', match: 'all', conditions: [], json };
  if (isCondition(filter)) return { mode: 'builder', match: 'all', conditions: [filter], json };
  const [match, inner] = 'all' in filter ? (['all', filter.all] as const) : (['any', filter.any] as const);
  return inner.every(isCondition)
    ? { mode: 'builder', match, conditions: inner, json }
    : { mode: 'json', match: 'all', conditions: [], json };
}

export function filterFormFrom(body: FormBody): FilterForm {
  const fields = valuesOf(body, 'condition_field');
  const ops = valuesOf(body, 'condition_op');
  const values = valuesOf(body, 'condition_value');
  return {
    mode: fieldOf(body, 'filter_mode') === 'json' ? 'json' : 'builder',
    match: fieldOf(body, 'match') === 'any' ? 'any' : 'all',
    conditions: values.map((value, index) => ({ field: fields[index] ?? '', op: ops[index] ?? '', value })),
    json: fieldOf(body, 'filters'),
  };
}

/**
 * The filter the form describes, in the API's language, for the use case to check (it refuses a
 * bad field, operator or pattern with its own message). `null` is no filter.
 */
export function filterOf(form: FilterForm): unknown {
  if (form.mode === 'json') {
    if (form.json.trim() === '') return null;
    try {
      return JSON.parse(form.json);
    } catch (error) {
      throw fieldRefusal('filters', `\`filters\` must be JSON (or empty for none): ${(error as Error).message}`);
    }
  }
  const conditions = form.conditions.filter((condition) => condition.value !== '');
  if (conditions.length === 0) return null;
  if (conditions.length === 1) return conditions[0];
  return { [form.match]: conditions };
}

export const fieldChoices = filterFields.map((field) => ({ value: field, label: field }));
const operatorGroups = {
  text: { label: 'For text fields', for: textFields },
  date: { label: 'For date_published', for: ['date_published'] },
};
/** Grouped by the fields they apply to, so the page (and its script) can offer only valid pairs. */
export const operatorChoices: readonly SelectChoice[] = filterOperators.map((op) => ({
  value: op,
  label: op.replace('_', ' '),
  group: dateOperators.includes(op) ? operatorGroups.date : operatorGroups.text,
}));
