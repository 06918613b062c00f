import { fieldRefusal } from './errors.js';
import { filterUses, judgeFilter, parseFilter, type FilterCondition, type FilterSubject, type ItemFilter } from './item-filter.js';
import { expectedMessage, unknownFieldMessage } from './field-message.js';

/**
 * The keep/block filters of a feed or a bundle, in the filter language webhooks use: an item is
 * shown when it matches `keep` (or there is none) and does not match `block`. What they drop is
 * shown nowhere: API responses, hosted outputs, bundles, webhooks, subscriptions.
 */
export interface KeepBlock {
  keep: ItemFilter | null;
  block: ItemFilter | null;
}

export const noFilters: KeepBlock = { keep: null, block: null };

export const hasFilters = (filters: KeepBlock): boolean => filters.keep !== null || filters.block !== null;

/** Why an item is kept or dropped: the rule and the condition that decided; null when no filter is set. */
export interface KeepBlockVerdict {
  kept: boolean;
  decidedBy: { rule: 'keep' | 'block'; path: string; condition: FilterCondition } | null;
}

/** `block` is judged first: an item it matches is dropped whatever `keep` says. */
export function judgeItem(item: FilterSubject, filters: KeepBlock, now: Date): KeepBlockVerdict {
  if (filters.block) {
    const blocked = judgeFilter(item, filters.block, now, 'block');
    if (blocked.matched) return { kept: false, decidedBy: { rule: 'block', ...blocked.decidedBy } };
    if (!filters.keep) return { kept: true, decidedBy: { rule: 'block', ...blocked.decidedBy } };
  }
  if (!filters.keep) return { kept: true, decidedBy: null };
  const kept = judgeFilter(item, filters.keep, now, 'keep');
  return { kept: kept.matched, decidedBy: { rule: 'keep', ...kept.decidedBy } };
}

/** True when the filters judge by age, so what they keep changes with time alone. */
export const filtersAgeWithTime = (filters: KeepBlock): boolean =>
  [filters.keep, filters.block].some((filter) => filter !== null && filterUses(filter, 'date_published'));

/**
 * Checks `{keep, block}` from a request (either may be left out or null); the message names the
 * path of the first problem, e.g. `filters.block.any[1].value`.
 */
const keepBlockShape = 'an object with `keep` and/or `block` filters, or `null`';

export function parseKeepBlock(value: unknown, path = 'filters'): KeepBlock {
  if (value === null || value === undefined) return noFilters;
  if (typeof value !== 'object' || Array.isArray(value)) throw fieldRefusal(path, expectedMessage(path, keepBlockShape, { value }));
  const { keep, block, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw fieldRefusal(path, unknownFieldMessage(path, Object.keys(rest), 'only `keep` and `block`'));
  return {
    keep: keep === null || keep === undefined ? null : parseFilter(keep, `${path}.keep`),
    block: block === null || block === undefined ? null : parseFilter(block, `${path}.block`),
  };
}

/**
 * Applies a PATCH's `filters`: left out keeps both, null removes both, and in an object each of
 * `keep` / `block` left out keeps its value while null removes it.
 */
export function patchKeepBlock(previous: KeepBlock, raw: unknown, path = 'filters'): KeepBlock {
  if (raw === undefined) return previous;
  const parsed = parseKeepBlock(raw, path);
  if (raw === null) return noFilters;
  const sent = raw as Record<string, unknown>;
  return { keep: 'keep' in sent ? parsed.keep : previous.keep, block: 'block' in sent ? parsed.block : previous.block };
}
