import { checkCssSelector, cssSelectorLimits, invalidSelector } from './css-selector.js';

/**
 * A person's CSS selectors for a page whose items the heuristics misread (docs/selectors.md).
 * `item` selects each item's element; every other selector is run inside it and may end in
 * `@attribute` to read that attribute instead of the text (`time@datetime`, `@data-url` for the
 * item element's own). When given, they decide the page's items: nothing found on the page or at
 * a well-known path overrides them.
 */
export interface PageSelectors {
  item: string;
  /** Default: the text of the item's first link. */
  title?: string;
  /** Default: the `href` of the match (or of its first `a[href]`); of the item's first link when absent. */
  link?: string;
  /** Default: the match's `datetime`, else its text read as a date; the item's first `<time>` when absent. */
  date?: string;
  /** The item's teaser (its HTML, or the attribute's text). */
  summary?: string;
  /** Default: the match's `src`/`srcset` (or its first image's); the item's first image when absent. */
  image?: string;
  author?: string;
}

/** The fields of an item a selector may name, besides `item` itself. */
export const itemFieldSelectors = ['title', 'link', 'date', 'summary', 'image', 'author'] as const;
export type ItemFieldSelector = (typeof itemFieldSelectors)[number];

const selectorKeys: readonly string[] = ['item', ...itemFieldSelectors];

/** A field selector split into the elements it selects and the attribute it reads. */
export interface FieldSelector {
  /** null: the item element itself (`@href`). */
  css: string | null;
  /** null: the element's text (or the field's default reading). */
  attribute: string | null;
}

/** An HTML attribute name as a field selector ends in it: no space, quote, `]`, `=` or `@`. */
const attributeName = /^[^\s"'>/=@[\]()]+$/;

/**
 * `h2 a@title` → `{ css: 'h2 a', attribute: 'title' }`; `@href` → `{ css: null, attribute: 'href' }`.
 * Split at the last `@` rather than by one pattern over the whole text: the pattern this replaced
 * (`^(.*?)\s*@(name)$`) backtracked over every run of spaces, so 36 KB of them took 0.4 s, before
 * the length check could refuse them (found by the fuzzer).
 */
export function splitFieldSelector(text: string): FieldSelector {
  const trimmed = text.trim();
  const at = trimmed.lastIndexOf('@');
  const name = trimmed.slice(at + 1);
  if (at === -1 || !attributeName.test(name)) return { css: trimmed, attribute: null };
  const css = trimmed.slice(0, at).trim();
  return { css: css === '' ? null : css, attribute: name.toLowerCase() };
}

const expectedObject = 'an object with `item` (a CSS selector) and optional `title`, `link`, `date`, `summary`, `image`, `author`';

/**
 * `selectors` as a request sent them, checked: `item` a CSS selector, each other field a CSS
 * selector optionally ending in `@attribute` (or `@attribute` alone, for the item element's own),
 * each within the limits of `checkCssSelector`. Pure; REST, GraphQL and the dashboard call it alike.
 * @throws FeedmillError `validation_failed` naming the field (`selectors.item`) and what was expected.
 */
export function parsePageSelectors(value: unknown, path = 'selectors'): PageSelectors {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidSelector(path, expectedObject, value);
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!selectorKeys.includes(key)) {
      throw invalidSelector(
        `${path}.${key}`,
        'absent: only `item`, `title`, `link`, `date`, `summary`, `image` and `author` are known',
        record[key],
      );
    }
  }
  if (record['item'] === undefined) throw invalidSelector(`${path}.item`, 'a CSS selector of the element of each item', undefined);
  if (typeof record['item'] === 'string' && splitFieldSelector(record['item']).attribute !== null) {
    throw invalidSelector(
      `${path}.item`,
      'a CSS selector of elements, without `@attribute` (only the other fields read attributes)',
      record['item'],
    );
  }
  const selectors: PageSelectors = { item: checkCssSelector(record['item'], `${path}.item`) };
  for (const field of itemFieldSelectors) {
    const given = record[field];
    if (given !== undefined) selectors[field] = checkFieldSelector(given, `${path}.${field}`);
  }
  return selectors;
}

function checkFieldSelector(value: unknown, path: string): string {
  const expected = `a CSS selector of at most ${cssSelectorLimits.selectorChars} characters, optionally ending in \`@attribute\``;
  if (typeof value !== 'string' || value.trim() === '' || value.trim().length > cssSelectorLimits.selectorChars) {
    throw invalidSelector(path, expected, value);
  }
  const { css } = splitFieldSelector(value);
  if (css !== null) checkCssSelector(css, path);
  return value.trim();
}
