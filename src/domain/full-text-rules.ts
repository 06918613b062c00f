import { checkCssSelector, cssSelectorLimits, invalidSelector } from './css-selector.js';

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
export const fullTextRuleLimits = { ...cssSelectorLimits, removeSelectors: 10 } as const;

/**
 * `full_text_rules` as a feed states them, checked: an object with an optional `content` selector
 * and an optional `remove` list of at most 10 selectors, each a CSS selector list of at most 200
 * characters that css-what (the parser of the engine that runs them) reads, with bounded
 * alternatives, parts and pseudo-class nesting. Pure; REST and GraphQL call it alike.
 * @throws FeedmillError `validation_failed` naming the field path (`full_text_rules.remove[2]`) and what was expected.
 */
export function validateFullTextRules(value: unknown, path = 'full_text_rules'): FullTextRules {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidSelector(path, 'an object with optional `content` (a CSS selector) and `remove` (a list of CSS selectors)', value);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'content' && key !== 'remove')
      throw invalidSelector(`${path}.${key}`, 'absent: only `content` and `remove` are known', record[key]);
  }
  const rules: FullTextRules = {};
  if (record['content'] !== undefined) rules.content = checkCssSelector(record['content'], `${path}.content`);
  const remove = record['remove'];
  if (remove !== undefined) {
    if (!Array.isArray(remove)) throw invalidSelector(`${path}.remove`, 'a list of CSS selectors', remove);
    if (remove.length > fullTextRuleLimits.removeSelectors) {
      throw invalidSelector(
        `${path}.remove`,
        `a list of at most ${fullTextRuleLimits.removeSelectors} selectors`,
        `${remove.length} selectors`,
      );
    }
    rules.remove = remove.map((selector: unknown, index) => checkCssSelector(selector, `${path}.remove[${index}]`));
  }
  return rules;
}
