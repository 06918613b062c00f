import { parse, SelectorType, type Selector } from 'css-what';
import { fieldRefusal, type FeedmillError } from './errors.js';

/**
 * Where a feed's article pages keep their article, stated by the feed's owner when the generic
 * extractor gets a site wrong: `content`, the CSS selector of the element(s) holding the article,
 * and `remove`, selectors of boilerplate to drop first. They win over the shipped site rules.
 */
export interface FullTextRules {
  content?: string;
  remove?: string[];
}

/** Bounds on what a feed may ask the extractor to run on every article page it fetches. */
export const fullTextRuleLimits = {
  /** Characters in one selector (a selector list counts as one). */
  selectorChars: 200,
  removeSelectors: 10,
  /** Comma-separated alternatives in one selector. */
  alternatives: 10,
  /** Simple selectors and combinators in one alternative, those inside pseudo-classes included. */
  parts: 32,
  /** How deep pseudo-classes may nest (`:not(:has(…))` is 2). */
  pseudoDepth: 2,
} as const;

/**
 * The pseudo-classes the extractor's CSS engine (css-select, through linkedom) evaluates on a
 * static document. Others (`:hover`, `:visited`…) never match there, and pseudo-elements select
 * no element; a selector that uses them is a mistake worth telling its author about.
 */
const pseudoClasses = new Set([
  'not',
  'is',
  'where',
  'matches',
  'has',
  'contains',
  'icontains',
  'empty',
  'first-child',
  'last-child',
  'only-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'nth-child',
  'nth-last-child',
  'nth-of-type',
  'nth-last-of-type',
  'root',
  'link',
  'any-link',
  'checked',
  'disabled',
  'enabled',
  'header',
  'heading',
]);

/**
 * `full_text_rules` as a feed states them, checked: an object with an optional `content` selector
 * and an optional `remove` list of at most 10 selectors, each a CSS selector list of at most 200
 * characters that css-what (the parser of the engine that runs them) reads, with bounded
 * alternatives, parts and pseudo-class nesting. Pure; REST and GraphQL call it alike.
 * @throws FeedmillError `validation_failed` naming the field path (`full_text_rules.remove[2]`) and what was expected.
 */
export function validateFullTextRules(value: unknown, path = 'full_text_rules'): FullTextRules {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(path, 'an object with optional `content` (a CSS selector) and `remove` (a list of CSS selectors)', value);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'content' && key !== 'remove')
      throw invalid(`${path}.${key}`, 'absent: only `content` and `remove` are known', record[key]);
  }
  const rules: FullTextRules = {};
  if (record['content'] !== undefined) rules.content = validateSelector(record['content'], `${path}.content`);
  const remove = record['remove'];
  if (remove !== undefined) {
    if (!Array.isArray(remove)) throw invalid(`${path}.remove`, 'a list of CSS selectors', remove);
    if (remove.length > fullTextRuleLimits.removeSelectors) {
      throw invalid(`${path}.remove`, `a list of at most ${fullTextRuleLimits.removeSelectors} selectors`, `${remove.length} selectors`);
    }
    rules.remove = remove.map((selector: unknown, index) => validateSelector(selector, `${path}.remove[${index}]`));
  }
  return rules;
}

function validateSelector(value: unknown, path: string): string {
  const expected = `a CSS selector of at most ${fullTextRuleLimits.selectorChars} characters`;
  if (typeof value !== 'string') throw invalid(path, expected, value);
  const selector = value.trim();
  if (selector === '' || selector.length > fullTextRuleLimits.selectorChars) throw invalid(path, expected, value);
  let parsed: Selector[][];
  try {
    parsed = parse(selector);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(path, `${expected} (${reason})`, value);
  }
  if (parsed.length > fullTextRuleLimits.alternatives) {
    throw invalid(path, `a selector of at most ${fullTextRuleLimits.alternatives} comma-separated alternatives`, value);
  }
  for (const alternative of parsed) checkParts(alternative, path, value, 0, { count: 0 });
  return selector;
}

function checkParts(parts: Selector[], path: string, value: string, depth: number, seen: { count: number }): void {
  for (const part of parts) {
    seen.count++;
    if (seen.count > fullTextRuleLimits.parts) {
      throw invalid(path, `a selector of at most ${fullTextRuleLimits.parts} simple selectors and combinators per alternative`, value);
    }
    if (part.type === SelectorType.PseudoElement) throw invalid(path, 'a selector of elements, with no pseudo-element (`::…`)', value);
    if (part.type !== SelectorType.Pseudo) continue;
    if (!pseudoClasses.has(part.name)) {
      throw invalid(path, `a selector whose pseudo-classes are among :${[...pseudoClasses].join(', :')}`, value);
    }
    if (Array.isArray(part.data)) {
      if (depth + 1 > fullTextRuleLimits.pseudoDepth) {
        throw invalid(path, `a selector with pseudo-classes nested at most ${fullTextRuleLimits.pseudoDepth} deep`, value);
      }
      for (const inner of part.data) checkParts(inner, path, value, depth + 1, seen);
    }
  }
}

function invalid(path: string, expected: string, got: unknown): FeedmillError {
  const shown = typeof got === 'string' ? got : (JSON.stringify(got) ?? String(got));
  const clipped = shown.length > 240 ? `${shown.slice(0, 240)}…` : shown;
  return fieldRefusal(path, `Expected \`${path}\` to be ${expected}, got \`${clipped}\``);
}
