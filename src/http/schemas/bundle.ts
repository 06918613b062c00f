import { KeepBlock, KeepBlockInput } from './item-filter.js';
import { Type } from 'typebox';
import { bundleFieldLimits } from '../../domain/field-limits.js';
import { FeedItem, pageFields } from './feed.js';
import { httpUrlOrEmpty } from './common.js';
import {
  bundleExample,
  bundleItemExample,
  bundleListExample,
  bundleSettingsExample,
  bundleWithItemsExample,
  duplicateCopyExample,
  filtersExample,
} from './examples.js';

/** The use cases' limits, published in the schema so the contract states them. */
export const bundleMaxLengths = bundleFieldLimits;

const bundleFields = {
  id: Type.String({ description: '`_` + 16 url-safe characters.' }),
  name: Type.String(),
  description: Type.String(),
  icon: Type.String({ description: 'An image address, or "".' }),
  rss_feed_url: Type.String({ description: 'The hosted bundle (RSS 2.0); `.atom`, `.json` and `.csv` beside it.' }),
  feeds: Type.Array(Type.String(), { description: 'The ids of its feeds.' }),
};

/** Spec "Bundle" without items: list entries and the remove-feed response. */
export const Bundle = Type.Object(bundleFields, { description: 'A bundle, without its items.', examples: [bundleExample] });

/** The other copies of a bundle item's article (docs/api.md "Bundles without duplicates"). */
export const DuplicateCopy = Type.Object(
  {
    feed_id: Type.String({ description: 'The member feed that holds this copy.' }),
    url: Type.String({ description: "This copy's link, as its feed gives it." }),
  },
  { description: "Another copy of a bundle item's article.", examples: [duplicateCopyExample] },
);

/** Spec "Feed item", plus the copies of the same article that the bundle left out. */
export const BundleItem = Type.Object(
  {
    ...FeedItem.properties,
    duplicates: Type.Array(DuplicateCopy, {
      description:
        'The same article reached through other member feeds (the same address once tracking parameters, `www.`, scheme, AMP variants and FeedBurner redirects are set aside, or the same story under a slightly different title), which the bundle shows once: this item is the earliest published copy, ties going to the feed listed first. Empty when there is no other copy.',
    }),
  },
  { description: 'An item of a bundle: a feed item and the copies of its article the bundle shows once.', examples: [bundleItemExample] },
);

/** Spec "Bundle" with items: create, retrieve, update and add-feed responses. */
export const BundleWithItems = Type.Object(
  {
    ...bundleFields,
    items: Type.Array(BundleItem, {
      description: "Its feeds' items merged, each article once, in the order of `sort`, after the filters.",
    }),
  },
  { description: 'A bundle with its merged items.', examples: [bundleWithItemsExample] },
);

export const CreateBundleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: bundleMaxLengths.name }),
    feeds: Type.Array(Type.String({ maxLength: 64 }), { maxItems: bundleMaxLengths.feeds }),
  },
  {
    additionalProperties: false,
    description: 'A name and the ids of the feeds to bundle.',
    examples: [{ name: bundleExample.name, feeds: bundleExample.feeds }],
  },
);

export const UpdateBundleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: bundleMaxLengths.name })),
    description: Type.Optional(Type.String({ maxLength: bundleMaxLengths.description })),
    icon: Type.Optional(Type.String({ ...httpUrlOrEmpty, description: 'An absolute http(s) URL, or "" for none.' })),
  },
  {
    additionalProperties: false,
    description: 'The fields to change; the others keep their values.',
    examples: [{ description: bundleExample.description }],
  },
);

export const BundleFeedParams = Type.Object({ id: Type.String({ maxLength: 64 }), feedId: Type.String({ maxLength: 64 }) });

export const BundleList = Type.Object(
  { ...pageFields, data: Type.Array(Bundle) },
  { description: "A page of the account's bundles.", examples: [bundleListExample] },
);

/** GET/PATCH /v1/bundles/:id/settings. */
export const BundleSettings = Type.Object(
  {
    sort: Type.Union([Type.Literal('last_added'), Type.Literal('date')], {
      description: 'Default order of merged items when a request gives no `sort`.',
    }),
    filters: KeepBlock,
  },
  {
    description: "The bundle's default order and its keep/block filters, applied to the merged items after each member feed's own.",
    examples: [bundleSettingsExample],
  },
);

export const UpdateBundleSettingsBody = Type.Object(
  { filters: Type.Optional(KeepBlockInput) },
  { additionalProperties: false, description: 'The settings to change.', examples: [{ filters: filtersExample }] },
);
