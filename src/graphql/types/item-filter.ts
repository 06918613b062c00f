import type { InputRef, ObjectRef } from '@pothos/core';
import {
  filterLimits,
  type FilterCondition as Condition,
  type FilterField as Field,
  type FilterOperator as Operator,
  type ItemFilter as Filter,
} from '../../domain/item-filter.js';
import type { KeepBlock as KeepBlockValue } from '../../domain/keep-block.js';
import { builder, type BuilderTypes } from '../builder.js';
import { upperCaseValues } from './enum-values.js';

// The filter language of domain/item-filter.ts, typed. Its fields spell the JSON of the REST body
// (`{field, op, value}` or `{all: [...]}` / `{any: [...]}`), so one filter, as a variable, serves
// both surfaces; the use case checks it (parseFilter) and names the path of the first problem.
// GraphQL has no union of inputs and a recursive input would admit any depth, so each level of
// nesting the language allows (`filterLimits.groupSizes`: a group, a group in a group, then only
// conditions) is its own type, and the schema itself refuses a deeper filter.

const [topGroup, innerGroup] = filterLimits.groupSizes;

const fieldDocs: Record<Field, string> = {
  title: "The item's title.",
  description: "The item's description as text (`descriptionText`).",
  author: "The names of the item's authors; the feed's `customAuthor` when it has one.",
  url: "The item's link.",
  category: "Any of the item's categories: `CONTAINS` and `MATCHES` hold when one does, `NOT_CONTAINS` when none does.",
  date_published: 'When the item was published; it takes `OLDER_THAN` and `NEWER_THAN` only.',
};

export const FilterField = builder.enumType('FilterField', {
  description: 'What a filter condition looks at in an item.',
  values: upperCaseValues(fieldDocs),
});

const operatorDocs: Record<Operator, string> = {
  contains: 'The text holds `value`, ignoring case. Text fields only.',
  not_contains: 'The text does not hold `value`, ignoring case. Text fields only.',
  matches: `The text matches \`value\`, a case-insensitive regular expression of at most ${filterLimits.maxPattern} characters in RE2 syntax (no backreferences or lookarounds), matched in linear time. Text fields only.`,
  older_than: 'Published longer ago than `value`, an age: minutes, hours, days or weeks (`90m`, `12h`, `7d`, `2w`). `DATE_PUBLISHED` only.',
  newer_than: 'Published at most `value` ago (an age, as for `OLDER_THAN`). `DATE_PUBLISHED` only.',
};

export const FilterOperator = builder.enumType('FilterOperator', {
  description: 'How a condition compares the field with its `value`.',
  values: upperCaseValues(operatorDocs),
});

const valueDoc = `The text to look for (1 to ${filterLimits.maxValue} characters), the pattern of \`MATCHES\`, or the age of \`OLDER_THAN\` / \`NEWER_THAN\`.`;
const conditionDoc = 'Set `field`, `op` and `value` for a condition, or only one of `all` / `any` for a group.';

// --- Inputs, deepest first -------------------------------------------------------------------

const FilterConditionInput = builder.inputType('FilterConditionInput', {
  description: 'A condition in a group inside a group, where the filter language allows nothing deeper.',
  fields: (t) => ({
    field: t.field({ type: FilterField, required: true, description: 'What the condition looks at.' }),
    op: t.field({ type: FilterOperator, required: true, description: 'How it compares.' }),
    value: t.string({ required: true, description: valueDoc }),
  }),
});

/** A level of the language: a condition, or a group of at most `most` filters of the next level. */
function inputLevel(name: string, member: InputRef<object>, most: number, description: string) {
  return builder.inputType(name, {
    description: `${description} ${conditionDoc}`,
    fields: (t) => ({
      field: t.field({ type: FilterField, required: false, description: 'What the condition looks at.' }),
      op: t.field({ type: FilterOperator, required: false, description: 'How the condition compares.' }),
      value: t.string({ required: false, description: valueDoc }),
      all: t.field({
        type: [member],
        required: false,
        description: `A group: matches when every one of its 1 to ${most} filters matches.`,
      }),
      any: t.field({
        type: [member],
        required: false,
        description: `A group: matches when at least one of its 1 to ${most} filters matches.`,
      }),
    }),
  });
}

const ItemSubfilterInput = inputLevel(
  'ItemSubfilterInput',
  FilterConditionInput,
  innerGroup,
  `A filter inside a group: a condition, or a group of at most ${innerGroup} conditions.`,
);

export const ItemFilterInput = inputLevel(
  'ItemFilterInput',
  ItemSubfilterInput,
  topGroup,
  `A filter (docs/filters.md): a condition such as \`{field: title, op: contains, value: "rust"}\`, or \`{all: [...]}\` / \`{any: [...]}\` of at most ${topGroup} filters, ` +
    `of which a group holds at most ${innerGroup} conditions. The REST body's JSON, with its enum values in UPPER_CASE.`,
);

export const KeepBlockInput = builder.inputType('KeepBlockInput', {
  description: 'Keep/block filters: an item is shown when it matches `keep` (or there is none) and does not match `block`.',
  fields: (t) => ({
    keep: t.field({ type: ItemFilterInput, required: false, description: 'Left out: kept as it is; null: removed.' }),
    block: t.field({
      type: ItemFilterInput,
      required: false,
      description: 'Left out: kept as it is; null: removed. Judged first: an item it matches is dropped.',
    }),
  }),
});

/** A filter input as the REST body spells it: graphql hands fields sent as null over as null; the language leaves them out. */
export function filterFromInput(input: object): Record<string, unknown> {
  const sent = Object.entries(input).filter(([, value]) => value !== null && value !== undefined);
  return Object.fromEntries(
    sent.map(([key, value]: [string, unknown]) => [
      key,
      Array.isArray(value) ? value.map((member: object) => filterFromInput(member)) : value,
    ]),
  );
}

/** A settings input's `filters` for patchKeepBlock, which tells left out from null, for both and for each of `keep` / `block`. */
export function keepBlockFromInput(input: { filters?: { keep?: object | null; block?: object | null } | null }): unknown {
  if (!('filters' in input)) return undefined;
  const { filters } = input;
  if (filters === null || filters === undefined) return null;
  const rule = (filter: object | null | undefined): unknown => (filter === null || filter === undefined ? null : filterFromInput(filter));
  return { ...('keep' in filters ? { keep: rule(filters.keep) } : {}), ...('block' in filters ? { block: rule(filters.block) } : {}) };
}

// --- Outputs: the same levels, read from the stored filter -------------------------------------

/** parseFilter never stores a group below the last level, so this holds for every stored filter. */
function conditionOf(filter: Filter): Condition {
  if ('field' in filter) return filter;
  throw new Error('A stored filter nests deeper than the filter language allows');
}

export const FilterCondition = builder.objectRef<Filter>('FilterCondition').implement({
  description: 'A condition in a group inside a group.',
  fields: (t) => ({
    field: t.field({ type: FilterField, description: 'What the condition looks at.', resolve: (filter) => conditionOf(filter).field }),
    op: t.field({ type: FilterOperator, description: 'How it compares.', resolve: (filter) => conditionOf(filter).op }),
    value: t.string({ description: valueDoc, resolve: (filter) => conditionOf(filter).value }),
  }),
});

/** The output twin of `inputLevel`: the fields of the shape the filter does not have are null. */
function outputLevel(name: string, member: ObjectRef<BuilderTypes, Filter>, most: number, description: string) {
  return builder.objectRef<Filter>(name).implement({
    description,
    fields: (t) => ({
      field: t.field({
        type: FilterField,
        nullable: true,
        description: 'What the condition looks at; null for a group.',
        resolve: (filter) => ('field' in filter ? filter.field : null),
      }),
      op: t.field({
        type: FilterOperator,
        nullable: true,
        description: 'How the condition compares; null for a group.',
        resolve: (filter) => ('op' in filter ? filter.op : null),
      }),
      value: t.string({
        nullable: true,
        description: `${valueDoc} Null for a group.`,
        resolve: (filter) => ('value' in filter ? filter.value : null),
      }),
      all: t.field({
        type: [member],
        nullable: true,
        description: `Every one of these 1 to ${most} filters must match; null unless the filter is an \`all\` group.`,
        resolve: (filter) => ('all' in filter ? filter.all : null),
      }),
      any: t.field({
        type: [member],
        nullable: true,
        description: `At least one of these 1 to ${most} filters must match; null unless the filter is an \`any\` group.`,
        resolve: (filter) => ('any' in filter ? filter.any : null),
      }),
    }),
  });
}

const ItemSubfilter = outputLevel(
  'ItemSubfilter',
  FilterCondition,
  innerGroup,
  `A filter inside a group: a condition, or a group of at most ${innerGroup} conditions.`,
);

export const ItemFilter = outputLevel(
  'ItemFilter',
  ItemSubfilter,
  topGroup,
  'A filter (docs/filters.md): a condition (`field`, `op`, `value`), or a group (`all` or `any`). Select down to `FilterCondition` to read every level.',
);

export const KeepBlock = builder.objectRef<KeepBlockValue>('KeepBlock').implement({
  description:
    'Keep/block filters: an item is shown when it matches `keep` (or there is none) and does not match `block`; what they drop is shown nowhere.',
  fields: (t) => ({
    keep: t.field({
      type: ItemFilter,
      nullable: true,
      description: 'Items must match it to be shown; null: no keep filter.',
      resolve: (filters) => filters.keep,
    }),
    block: t.field({
      type: ItemFilter,
      nullable: true,
      description: 'Items that match it are dropped; null: no block filter.',
      resolve: (filters) => filters.block,
    }),
  }),
});
