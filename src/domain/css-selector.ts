import { parse, SelectorType, type PseudoSelector, type Selector } from 'css-what';
import { fieldRefusal, type FeedmillError } from './errors.js';

/**
 * Bounds on a selector a person gives feedmill to run on pages it fetches (full-text rules, a
 * page's item selectors): each is run on every page of the feed, so its cost is capped here.
 */
export const cssSelectorLimits = {
  /** Characters in one selector (a selector list counts as one). */
  selectorChars: 200,
  /** Comma-separated alternatives in one selector. */
  alternatives: 10,
  /** Simple selectors and combinators in one alternative, those inside pseudo-classes included. */
  parts: 32,
  /** How deep pseudo-classes may nest (`:not(:has(…))` is 2). */
  pseudoDepth: 2,
} as const;

/** What each kind of pseudo-class takes in its parentheses, as a refusal says it. */
const argumentsExpected = {
  selectors: 'selectors in parentheses, as in `:not(.ad)`',
  text: 'text in parentheses, as in `:contains(Read more)`',
  formula: 'an `An+B` formula in parentheses, as in `:nth-child(2n+1)`',
  none: 'no parentheses',
} as const;

/**
 * The pseudo-classes css-select (the engine both extractors run selectors with) evaluates on a
 * static document, by what each takes in its parentheses: selectors, text, an `An+B` formula, or
 * nothing. Others (`:hover`, `:visited`…) never match there, and pseudo-elements select no
 * element; a selector that uses them is a mistake worth telling its author about. css-what reads
 * `:not` or `:nth-child(x)` where css-select cannot compile them, so the arguments are checked
 * here, or a selector accepted today would fail every refresh (found by the fuzzer).
 */
const pseudoClasses = new Map<string, keyof typeof argumentsExpected>([
  ...(['not', 'is', 'where', 'matches', 'has'] as const).map((name) => [name, 'selectors'] as const),
  ...(['contains', 'icontains'] as const).map((name) => [name, 'text'] as const),
  ...(['nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type'] as const).map((name) => [name, 'formula'] as const),
  ...(
    [
      'empty',
      'first-child',
      'last-child',
      'only-child',
      'first-of-type',
      'last-of-type',
      'only-of-type',
      'root',
      'link',
      'any-link',
      'checked',
      'disabled',
      'enabled',
      'header',
      'heading',
    ] as const
  ).map((name) => [name, 'none'] as const),
]);

/** `An+B`, `even` or `odd`, as nth-check (css-select's) reads it. */
const formula = /^\s*(?:even|odd|[+-]?\d*n(?:\s*[+-]\s*\d+)?|[+-]?\d+)\s*$/i;

function argumentsFit(kind: keyof typeof argumentsExpected, data: PseudoSelector['data']): boolean {
  if (kind === 'selectors') return Array.isArray(data);
  if (kind === 'none') return data === null;
  if (typeof data !== 'string') return false;
  return kind === 'text' || formula.test(data);
}

/**
 * A CSS selector list as a person wrote it, checked: a string of at most 200 characters that
 * css-what (the parser of the engine that runs it) reads, with bounded alternatives, parts and
 * pseudo-class nesting. Pure.
 * @returns the selector, trimmed
 * @throws FeedmillError `validation_failed` naming `path` (`full_text_rules.content`, `selectors.item`) and what was expected.
 */
export function checkCssSelector(value: unknown, path: string): string {
  const expected = `a CSS selector of at most ${cssSelectorLimits.selectorChars} characters`;
  if (typeof value !== 'string') throw invalidSelector(path, expected, value);
  const selector = value.trim();
  if (selector === '' || selector.length > cssSelectorLimits.selectorChars) throw invalidSelector(path, expected, value);
  let parsed: Selector[][];
  try {
    parsed = parse(selector);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalidSelector(path, `${expected} (${reason})`, value);
  }
  if (parsed.length > cssSelectorLimits.alternatives) {
    throw invalidSelector(path, `a selector of at most ${cssSelectorLimits.alternatives} comma-separated alternatives`, value);
  }
  for (const alternative of parsed) checkParts(alternative, path, value, 0, { count: 0 });
  return selector;
}

function checkParts(parts: Selector[], path: string, value: string, depth: number, seen: { count: number }): void {
  for (const part of parts) {
    seen.count++;
    if (seen.count > cssSelectorLimits.parts) {
      throw invalidSelector(
        path,
        `a selector of at most ${cssSelectorLimits.parts} simple selectors and combinators per alternative`,
        value,
      );
    }
    if (part.type === SelectorType.PseudoElement)
      throw invalidSelector(path, 'a selector of elements, with no pseudo-element (`::…`)', value);
    if (part.type === SelectorType.ColumnCombinator) throw invalidSelector(path, 'a selector without the column combinator (`||`)', value);
    // css-select compiles no namespace (`svg|a`, `[xlink|href]`): an HTML page has none to match.
    if ('namespace' in part && part.namespace !== null) {
      throw invalidSelector(path, 'a selector without namespaces (`ns|name`)', value);
    }
    if (part.type !== SelectorType.Pseudo) continue;
    const kind = pseudoClasses.get(part.name);
    if (kind === undefined) {
      throw invalidSelector(path, `a selector whose pseudo-classes are among :${[...pseudoClasses.keys()].join(', :')}`, value);
    }
    if (!argumentsFit(kind, part.data)) throw invalidSelector(path, `\`:${part.name}\` with ${argumentsExpected[kind]}`, value);
    if (Array.isArray(part.data)) {
      if (depth + 1 > cssSelectorLimits.pseudoDepth) {
        throw invalidSelector(path, `a selector with pseudo-classes nested at most ${cssSelectorLimits.pseudoDepth} deep`, value);
      }
      for (const inner of part.data) checkParts(inner, path, value, depth + 1, seen);
    }
  }
}

/** The refusal of a selector field: its path, what was expected, and what arrived (clipped). */
export function invalidSelector(path: string, expected: string, got: unknown): FeedmillError {
  const shown = typeof got === 'string' ? got : (JSON.stringify(got) ?? String(got));
  const clipped = shown.length > 240 ? `${shown.slice(0, 240)}…` : shown;
  return fieldRefusal(path, `Expected \`${path}\` to be ${expected}, got \`${clipped}\``);
}
