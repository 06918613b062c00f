import {
  addFeedToBundle,
  createBundle,
  deleteBundle,
  getBundle,
  listBundles,
  removeFeedFromBundle,
  updateBundle,
} from '../../app/bundles.js';
import { bundleFieldLimits } from '../../domain/field-limits.js';
import { builder } from '../builder.js';
import type { Bundle as BundleValue } from '../../domain/bundle.js';
import { hostedFeedUrl } from '../../domain/hosted-urls.js';
import { shownUrl } from '../../domain/safe-url.js';
import type { BundleWithItems } from '../../domain/shown-item.js';
import { DeletionResult } from './deletion-result.js';
import { FeedItemPage } from './feed-item.js';
import { ItemSort } from './item-sort.js';
import { pageArgs, pageOf, pageQuery, pageType } from './list.js';

/** A bundle, or a bundle with the merged items its use case already read (`bundle`, `createBundle`, `updateBundle`). */
export type BundleNode = BundleValue | BundleWithItems;

/** The bundle of a node. A domain Bundle has no `bundle` field, so the check tells the two apart. */
export const bundleOf = (node: BundleNode): BundleValue => ('bundle' in node ? node.bundle : node);

/** Spec "Bundle". */
export const Bundle = builder.objectRef<BundleNode>('Bundle').implement({
  description: 'A named group of feeds, hosted as one feed.',
  fields: (t) => ({
    id: t.id({
      description: '`_` and 16 url-safe characters, unguessable: the hosted addresses are built from it.',
      resolve: (node) => bundleOf(node).id,
    }),
    name: t.string({ description: 'Its name.', resolve: (node) => bundleOf(node).name }),
    description: t.string({ description: 'Set with `updateBundle`; empty until then.', resolve: (node) => bundleOf(node).description }),
    icon: t.string({
      description: 'An http(s) address of its image; empty when it has none.',
      resolve: (node) => shownUrl(bundleOf(node).icon),
    }),
    rssFeedUrl: t.string({
      description: 'The hosted RSS 2.0 document of the merged items; `.atom` and `.json` sit beside it.',
      resolve: (node, _args, { deps }) => hostedFeedUrl(deps.settings.publicUrl, bundleOf(node).id),
    }),
    feeds: t.idList({ description: 'Ids of the member feeds, in the order they were added.', resolve: (node) => bundleOf(node).feedIds }),
    items: t.field({
      type: FeedItemPage,
      description: "A page of the newest items of its feeds, merged; without `sort`, the bundle's own preference applies.",
      args: {
        ...pageArgs,
        sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the bundle's own preference." }),
      },
      resolve: async (node, { sort, ...page }, { deps, principal }) =>
        pageOf(
          'items' in node && !sort ? node.items : (await getBundle(deps, principal, bundleOf(node).id, sort ?? undefined)).items,
          page,
        ),
    }),
  }),
});

const BundlePage = pageType('BundlePage', Bundle, 'bundles');

builder.queryFields((t) => ({
  bundle: t.field({
    type: Bundle,
    description: "One of your bundles. Another account's bundle is `bundle_not_found`.",
    args: {
      id: t.arg.id({ required: true, description: 'The bundle (`_…`).' }),
      sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the bundle's own preference." }),
    },
    resolve: (_root, { id, sort }, { deps, principal }) => getBundle(deps, principal, id, sort ?? undefined),
  }),
  bundles: t.field({
    type: BundlePage,
    description: 'Your bundles, newest first.',
    args: pageArgs,
    resolve: (_root, args, { deps, principal }) => listBundles(deps, principal, pageQuery(args)),
  }),
}));

const CreateBundleInput = builder.inputType('CreateBundleInput', {
  description: 'What `createBundle` needs.',
  fields: (t) => ({
    name: t.string({ required: true, description: `1 to ${bundleFieldLimits.name} characters.` }),
    feeds: t.idList({ required: true, description: 'Ids of your feeds, in the order they join; a feed listed twice is added once.' }),
  }),
});

const UpdateBundleInput = builder.inputType('UpdateBundleInput', {
  description: 'What `updateBundle` changes; a field left out (or null) keeps its value.',
  fields: (t) => ({
    name: t.string({ required: false, description: `1 to ${bundleFieldLimits.name} characters.` }),
    description: t.string({ required: false, description: `At most ${bundleFieldLimits.description} characters.` }),
    icon: t.string({ required: false, description: 'An absolute http(s) address of an image; "" for none.' }),
  }),
});

builder.mutationFields((t) => ({
  createBundle: t.field({
    type: Bundle,
    description: 'Every listed feed must be yours (`feed_not_found` otherwise).',
    args: { input: t.arg({ type: CreateBundleInput, required: true, description: 'The name and the member feeds.' }) },
    resolve: (_root, { input }, { deps, principal }) => createBundle(deps, principal, { name: input.name, feeds: input.feeds }),
  }),
  updateBundle: t.field({
    type: Bundle,
    description: 'Changes name, description or icon; fields left out (or null) keep their value.',
    args: {
      id: t.arg.id({ required: true, description: 'The bundle to change.' }),
      input: t.arg({ type: UpdateBundleInput, required: true, description: 'The new values.' }),
    },
    resolve: (_root, { id, input }, { deps, principal }) =>
      updateBundle(deps, principal, id, {
        name: input.name ?? undefined,
        description: input.description ?? undefined,
        icon: input.icon ?? undefined,
      }),
  }),
  addFeedToBundle: t.field({
    type: Bundle,
    description: 'Adding a feed twice is harmless.',
    args: {
      bundleId: t.arg.id({ required: true, description: 'The bundle.' }),
      feedId: t.arg.id({ required: true, description: 'One of your feeds.' }),
    },
    resolve: (_root, { bundleId, feedId }, { deps, principal }) => addFeedToBundle(deps, principal, bundleId, feedId),
  }),
  removeFeedFromBundle: t.field({
    type: Bundle,
    description: 'The feed itself stays; a feed that is not a member is `feed_not_found`.',
    args: {
      bundleId: t.arg.id({ required: true, description: 'The bundle.' }),
      feedId: t.arg.id({ required: true, description: 'The member feed to remove.' }),
    },
    resolve: (_root, { bundleId, feedId }, { deps, principal }) => removeFeedFromBundle(deps, principal, bundleId, feedId),
  }),
  deleteBundle: t.field({
    type: DeletionResult,
    description: 'A second delete is `bundle_already_deleted`.',
    args: { id: t.arg.id({ required: true, description: 'The bundle to delete.' }) },
    resolve: (_root, { id }, { deps, principal }) => deleteBundle(deps, principal, id),
  }),
}));
