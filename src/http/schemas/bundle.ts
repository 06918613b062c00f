import { KeepBlock, KeepBlockInput } from './item-filter.js';
import { Type } from 'typebox';
import { bundleFieldLimits } from '../../domain/field-limits.js';
import { FeedItem, pageFields } from './feed.js';
import { httpUrlOrEmpty } from './common.js';
import { bundleExample, bundleListExample, bundleSettingsExample, bundleWithItemsExample, filtersExample } from './examples.js';

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

/** Spec "Bundle" with items: create, retrieve, update and add-feed responses. */
export const BundleWithItems = Type.Object(
  { ...bundleFields, items: Type.Array(FeedItem, { description: "Its feeds' items merged, in the order of `sort`, after the filters." }) },
  { description: 'A bundle with its merged items.', examples: [bundleWithItemsExample] },
);

export const CreateBundleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: bundleMaxLengths.name }),
    feeds: Type.Array(Type.String({ maxLength: 64 }), { maxItems: bundleMaxLengths.feeds }),
  },
  { additionalProperties: false, description: 'A name and the ids of the feeds to bundle.', examples: [{ name: bundleExample.name, feeds: bundleExample.feeds }] },
);

export const UpdateBundleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: bundleMaxLengths.name })),
    description: Type.Optional(Type.String({ maxLength: bundleMaxLengths.description })),
    icon: Type.Optional(Type.String({ ...httpUrlOrEmpty, description: 'An absolute http(s) URL, or "" for none.' })),
  },
  { additionalProperties: false, description: 'The fields to change; the others keep their values.', examples: [{ description: bundleExample.description }] },
);

export const BundleFeedParams = Type.Object({ id: Type.String({ maxLength: 64 }), feedId: Type.String({ maxLength: 64 }) });

export const BundleList = Type.Object({ ...pageFields, data: Type.Array(Bundle) }, { description: "A page of the account's bundles.", examples: [bundleListExample] });

/** GET/PATCH /v1/bundles/:id/settings. */
export const BundleSettings = Type.Object(
  {
    sort: Type.Union([Type.Literal('last_added'), Type.Literal('date')], { description: 'Default order of merged items when a request gives no `sort`.' }),
    filters: KeepBlock,
  },
  { description: "The bundle's default order and its keep/block filters, applied to the merged items after each member feed's own.", examples: [bundleSettingsExample] },
);

export const UpdateBundleSettingsBody = Type.Object(
  { filters: Type.Optional(KeepBlockInput) },
  { additionalProperties: false, description: 'The settings to change.', examples: [{ filters: filtersExample }] },
);
