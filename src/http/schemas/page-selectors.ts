import { Type } from 'typebox';
import { cssSelectorLimits } from '../../domain/css-selector.js';
import { pageSelectorsExample } from './examples.js';

/** One selector field: at most the domain's length, with a character other than white space. */
const selector = (description: string) =>
  Type.String({
    maxLength: cssSelectorLimits.selectorChars,
    pattern: '\\S',
    'x-expected': `a CSS selector of at most ${cssSelectorLimits.selectorChars} characters`,
    description,
  });

const readsAttribute = 'May end in `@attribute` to read that attribute instead (`@name` alone: the item element’s own).';

/** docs/selectors.md: a person's selectors for a page; the domain checks what a schema cannot (page-selectors.ts). */
export const PageSelectors = Type.Object(
  {
    item: selector(
      'CSS selector of each item’s element; every other selector runs inside it. No `@attribute`. At most 10 comma-separated alternatives, 32 parts each, pseudo-classes nested at most 2 deep.',
    ),
    title: Type.Optional(selector(`The title’s element (its text). ${readsAttribute} Default: the text of the item’s first link.`)),
    link: Type.Optional(
      selector(
        `The link: the \`href\` of the match or of its first \`a[href]\`. ${readsAttribute} Default: the item’s first link. Relative addresses are resolved against the page.`,
      ),
    ),
    date: Type.Optional(
      selector(`The date: the match’s \`datetime\`, else its text read as a date. ${readsAttribute} Default: the item’s first \`<time>\`.`),
    ),
    summary: Type.Optional(selector(`The teaser: the match’s HTML, sanitised. ${readsAttribute} Default: none.`)),
    image: Type.Optional(
      selector(`The picture: the match’s \`src\`/\`srcset\`, or its first image’s. ${readsAttribute} Default: the item’s first image.`),
    ),
    author: Type.Optional(selector(`The author’s name (its text). ${readsAttribute} Default: none.`)),
  },
  {
    additionalProperties: false,
    description:
      'CSS selectors naming a page’s items (docs/selectors.md). When given they decide the items: no platform rule, advertised feed or well-known path overrides them. A selector that does not parse is 400 naming its field; selectors that match nothing are 402 `no_items_found`.',
    examples: [pageSelectorsExample],
  },
);
