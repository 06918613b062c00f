import type { BundledItem, DuplicateCopy as Copy } from '../../domain/bundle-merge.js';
import type { ArticleError } from '../../domain/item-article.js';
import type { Author as ApiAuthor } from '../../domain/item.js';
import type { StoredItem } from '../../domain/stored-item.js';
import { builder } from '../builder.js';
import { pageType } from './list.js';

/** Spec "Author". */
export const Author = builder.objectRef<ApiAuthor>('Author').implement({
  description: 'A person or organisation named as an author of an item.',
  fields: (t) => ({ name: t.exposeString('name', { description: 'The name as the source gives it.' }) }),
});

/** Another copy of a bundle item's article (REST `duplicates`). */
const DuplicateCopy = builder.objectRef<Copy>('DuplicateCopy').implement({
  description: "Another copy of a bundle item's article, which the bundle shows once.",
  fields: (t) => ({
    feedId: t.exposeID('feedId', { description: 'The member feed that holds this copy.' }),
    url: t.exposeString('url', { description: "This copy's link, as its feed gives it." }),
  }),
});

const FullTextStatus = builder.enumType('FullTextStatus', {
  description: "How an item's article went (full text, docs/full-text.md).",
  values: {
    PENDING: { value: 'pending', description: 'Being fetched: the teaser is shown, the item is not yet announced.' },
    OK: { value: 'ok', description: 'The description is the article fetched from `url`.' },
    FAILED: { value: 'failed', description: 'It could not be had (`fullTextError` says why); the teaser is shown.' },
    SKIPPED: { value: 'skipped', description: 'Full text is off, or the item is older than the fill or past the per-refresh cap.' },
  } as const,
});

const FullTextError = builder.objectRef<ArticleError>('FullTextError').implement({
  description: "Why an item's article could not be had.",
  fields: (t) => ({
    code: t.exposeString('code', {
      description:
        "The fetcher's code (`upstream_status`, `upstream_timeout`, …), `unsupported_content_type`, `no_article_found`, or `timeout` (not in within FEEDMILL_FULL_TEXT_MAX_WAIT).",
    }),
    message: t.exposeString('message', { description: 'What went wrong, for humans.' }),
  }),
});

/** Spec "Feed item": an item a use case made a shown item (domain/shown-item.ts); in a bundle, with the other copies of its article. */
export const FeedItem = builder.objectRef<StoredItem | BundledItem>('FeedItem').implement({
  description: 'An item (article) of a feed or bundle.',
  fields: (t) => ({
    url: t.exposeString('url', { description: "The item's link." }),
    title: t.exposeString('title', { description: 'Its title as text; may be empty.' }),
    descriptionText: t.exposeString('description_text', { description: 'The description as plain text; empty when the item has none.' }),
    descriptionHtml: t.exposeString('description_html', { description: 'Sanitised HTML; empty when the item has no description.' }),
    thumbnail: t.exposeString('thumbnail', { nullable: true, description: 'An http(s) address of its image; null when it has none.' }),
    authors: t.field({
      type: [Author],
      description: "Empty when the item names no author; the feed's `customAuthor` when it has one.",
      resolve: (item) => item.authors,
    }),
    datePublished: t.exposeString('publishedAt', { description: 'ISO 8601 UTC with milliseconds.' }),
    // An item read without its feed's full text applied shows its teaser.
    summaryHtml: t.string({
      description: "The feed's own description of the item (its teaser), as sanitised HTML.",
      resolve: (item) => item.fullText?.summaryHtml ?? item.description_html,
    }),
    summaryText: t.string({
      description: "The feed's own description of the item (its teaser), as plain text.",
      resolve: (item) => item.fullText?.summaryText ?? item.description_text,
    }),
    fullTextStatus: t.field({
      type: FullTextStatus,
      description: 'Whether the description is the article fetched from `url` (full text), and if not, why.',
      resolve: (item) => item.fullText?.status ?? 'skipped',
    }),
    fullTextError: t.field({
      type: FullTextError,
      nullable: true,
      description: "Why the article could not be had (the last try's failure while pending); null otherwise.",
      resolve: (item) => item.fullText?.error ?? null,
    }),
    duplicates: t.field({
      type: [DuplicateCopy],
      nullable: true,
      description:
        'In a bundle: the same article reached through other member feeds, shown once (this item is the earliest published copy, ties going to the feed listed first); empty when there is none. Null outside a bundle.',
      resolve: (item) => ('duplicates' in item ? item.duplicates : null),
    }),
  }),
});

/** A page of a feed's or bundle's newest items. */
export const FeedItemPage = pageType('FeedItemPage', FeedItem, 'items');
