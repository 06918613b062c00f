import { Type, type TSchema } from 'typebox';
import { agePatternSource, dateOperators, filterLimits, textFields, textOperators } from '../../domain/item-filter.js';

/** A string from a closed list, as a plain `enum` (its error names the allowed values). */
const oneOfValues = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

/**
 * A condition on a text field: contains / not_contains a value, or `matches` a regular expression
 * (then shorter, and checked as one).
 */
const TextCondition = Type.Object(
  {
    field: oneOfValues(textFields),
    op: oneOfValues(textOperators),
    value: Type.String({ minLength: 1, maxLength: filterLimits.maxValue }),
  },
  {
    additionalProperties: false,
    if: { properties: { op: { const: 'matches' } } },
    then: {
      properties: {
        value: {
          type: 'string',
          maxLength: filterLimits.maxPattern,
          format: 'regex',
          'x-expected': `a regular expression in RE2 syntax of at most ${filterLimits.maxPattern} characters`,
          description:
            'A case-insensitive regular expression in RE2 syntax (no backreferences or lookarounds), matched in linear time (docs/filters.md).',
        },
      },
    },
  },
);

/** A condition on the date: older_than / newer_than an age. */
const AgeCondition = Type.Object(
  {
    field: Type.Literal('date_published'),
    op: oneOfValues(dateOperators),
    value: Type.String({
      pattern: agePatternSource,
      'x-expected': 'an age such as 90m, 12h, 7d or 2w',
      description: 'An age: minutes, hours, days or weeks (`90m`, `12h`, `7d`, `2w`).',
    }),
  },
  { additionalProperties: false },
);

const conditionDoc =
  'a condition `{field: title|description|author|url|category, op: contains|not_contains|matches, value}` or `{field: date_published, op: older_than|newer_than, value: "7d"}`';

/**
 * `date_published` takes exactly the age operators and every other field the text ones: two shapes,
 * so the contract states the rule the use case (parseFilter) applies.
 */
const Condition = Type.Union([TextCondition, AgeCondition], { description: conditionDoc, 'x-expected': conditionDoc });

/** The shapes of a filter nested `depth` deep: a condition, or `all` / `any` of filters one deeper, down to the limit. */
function filterShapes(depth: number): TSchema[] {
  const most = filterLimits.groupSizes[depth];
  if (most === undefined) return [Condition];
  const shapes = filterShapes(depth + 1);
  // At the deepest level only a condition is left: a union of one would say nothing more (Redocly's no-illogical-composition-keywords).
  const inner = Type.Array(shapes.length === 1 && shapes[0] ? shapes[0] : Type.Union(shapes), { minItems: 1, maxItems: most });
  return [
    Condition,
    Type.Object({ all: inner }, { additionalProperties: false }),
    Type.Object({ any: inner }, { additionalProperties: false }),
  ];
}

const languageDoc = `${conditionDoc}, or \`{all: [...]}\` / \`{any: [...]}\` of at most 8 filters, of which a group holds at most 4 conditions`;

/** What a request may send as a filter; a `matches` pattern is judged by the use case, in RE2's dialect. */
export const FiltersInput = Type.Union([...filterShapes(0), Type.Null()], {
  description: `${languageDoc}; null for none (docs/filters.md)`,
  'x-expected': 'a filter: a condition, or `{all: [...]}` / `{any: [...]}` of filters (docs/filters.md), or `null`',
});

/** A filter as responses show it. */
export const Filters = Type.Unknown({ description: `${languageDoc}; null for none. See docs/filters.md.` });

/** Keep/block filters of a feed or a bundle, as requests send them: either may be left out (kept as is) or null (none). */
export const KeepBlockInput = Type.Union(
  [Type.Object({ keep: Type.Optional(FiltersInput), block: Type.Optional(FiltersInput) }, { additionalProperties: false }), Type.Null()],
  {
    description:
      'An item is shown when it matches `keep` (or there is none) and does not match `block`; null removes both (docs/filters.md).',
    'x-expected': 'an object with `keep` and/or `block` filters, or `null`',
  },
);

/** Keep/block filters as responses show them. */
export const KeepBlock = Type.Object(
  { keep: Filters, block: Filters },
  {
    description:
      'An item is shown when it matches `keep` (or there is none) and does not match `block`; what they drop is shown nowhere (docs/filters.md).',
  },
);
