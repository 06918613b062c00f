import { itemFieldSelectors, type ItemFieldSelector, type PageSelectors as Selectors } from '../../domain/page-selectors.js';
import { builder } from '../builder.js';

const readsAttribute = 'May end in `@attribute` to read that attribute instead (`@name` alone: the item element’s own).';

/** docs/selectors.md: each field's meaning, said once for the output type and the input. */
const fieldDescriptions = {
  item: 'The CSS selector of each item’s element; every other selector runs inside it.',
  title: `The title’s element (its text). ${readsAttribute} Default: the text of the item’s first link.`,
  link: `The link: the href of the match or of its first a[href]. ${readsAttribute} Default: the item’s first link.`,
  date: `The date: the match’s datetime, else its text read as a date. ${readsAttribute} Default: the item’s first <time>.`,
  summary: `The teaser: the match’s HTML, sanitised. ${readsAttribute} Default: none.`,
  image: `The picture: the match’s src/srcset, or its first image’s. ${readsAttribute} Default: the item’s first image.`,
  author: `The author’s name (its text). ${readsAttribute} Default: none.`,
} as const;

export const PageSelectors = builder.objectRef<Selectors>('PageSelectors').implement({
  description: 'CSS selectors naming a page’s items (docs/selectors.md); when set they decide the items.',
  fields: (t) => ({
    item: t.exposeString('item', { description: fieldDescriptions.item }),
    title: t.string({ nullable: true, description: fieldDescriptions.title, resolve: (s) => s.title ?? null }),
    link: t.string({ nullable: true, description: fieldDescriptions.link, resolve: (s) => s.link ?? null }),
    date: t.string({ nullable: true, description: fieldDescriptions.date, resolve: (s) => s.date ?? null }),
    summary: t.string({ nullable: true, description: fieldDescriptions.summary, resolve: (s) => s.summary ?? null }),
    image: t.string({ nullable: true, description: fieldDescriptions.image, resolve: (s) => s.image ?? null }),
    author: t.string({ nullable: true, description: fieldDescriptions.author, resolve: (s) => s.author ?? null }),
  }),
});

export const PageSelectorsInput = builder.inputType('PageSelectorsInput', {
  description:
    'CSS selectors naming a page’s items (docs/selectors.md). A selector that does not parse is `validation_failed` naming its field (`selectors.item`); selectors that match nothing are `no_items_found`.',
  fields: (t) => ({
    item: t.string({ required: true, description: fieldDescriptions.item }),
    title: t.string({ required: false, description: fieldDescriptions.title }),
    link: t.string({ required: false, description: fieldDescriptions.link }),
    date: t.string({ required: false, description: fieldDescriptions.date }),
    summary: t.string({ required: false, description: fieldDescriptions.summary }),
    image: t.string({ required: false, description: fieldDescriptions.image }),
    author: t.string({ required: false, description: fieldDescriptions.author }),
  }),
});

type SelectorsInput = { item: string } & Partial<Record<ItemFieldSelector, string | null | undefined>>;

/** The input as the use cases take it: a field given as null is a field left out. */
export function selectorsFromInput(input: SelectorsInput): Selectors {
  const selectors: Selectors = { item: input.item };
  for (const field of itemFieldSelectors) {
    const value = input[field];
    if (typeof value === 'string') selectors[field] = value;
  }
  return selectors;
}
