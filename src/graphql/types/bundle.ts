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
import { bundleShape, bundleWithItemsShape, type BundleShape } from '../shapes/bundle.js';
import { itemShape } from '../shapes/item.js';
import { withShapes } from '../shapes/list.js';
import { DeletionResult } from './deletion-result.js';
import { FeedItem } from './feed-item.js';
import { ItemSort } from './item-sort.js';
import { listEnvelope, pageArgs, pageQuery } from './list.js';

/** Spec "Bundle". */
export const Bundle = builder.objectRef<BundleShape>('Bundle').implement({
  description: 'A named group of feeds, hosted as one feed.',
  fields: (t) => ({
    id: t.exposeID('id', { description: '`_` and 16 url-safe characters, unguessable: the hosted addresses are built from it.' }),
    name: t.exposeString('name', { description: 'Its name.' }),
    description: t.exposeString('description', { description: 'Set with `updateBundle`; empty until then.' }),
    icon: t.exposeString('icon', { description: 'An http(s) address of its image; empty when it has none.' }),
    rss_feed_url: t.exposeString('rss_feed_url', {
      description: 'The hosted RSS 2.0 document of the merged items; `.atom` and `.json` sit beside it.',
    }),
    feeds: t.exposeIDList('feeds', { description: 'Ids of the member feeds, in the order they were added.' }),
    items: t.field({
      type: [FeedItem],
      description: "The newest items of its feeds, merged; without `sort`, the bundle's own preference applies.",
      args: {
        sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the bundle's own preference." }),
      },
      resolve: async (bundle, { sort }, { deps, principal }) =>
        bundle.items && !sort ? bundle.items : (await getBundle(deps, principal, bundle.id, sort ?? undefined)).items.map(itemShape),
    }),
  }),
});

const BundleList = listEnvelope('BundleList', Bundle, 'bundles');

builder.queryFields((t) => ({
  bundle: t.field({
    type: Bundle,
    description: "One of your bundles. Another account's bundle is `bundle_not_found`.",
    args: {
      id: t.arg.id({ required: true, description: 'The bundle (`_…`).' }),
      sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the bundle's own preference." }),
    },
    resolve: async (_root, { id, sort }, { deps, principal }) =>
      bundleWithItemsShape(await getBundle(deps, principal, id, sort ?? undefined), deps.settings.publicUrl),
  }),
  bundles: t.field({
    type: BundleList,
    description: 'Your bundles, newest first.',
    args: pageArgs,
    resolve: async (_root, args, { deps, principal }) =>
      withShapes(await listBundles(deps, principal, pageQuery(args)), (bundle) => bundleShape(bundle, deps.settings.publicUrl)),
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
    resolve: async (_root, { input }, { deps, principal }) =>
      bundleWithItemsShape(await createBundle(deps, principal, { name: input.name, feeds: input.feeds }), deps.settings.publicUrl),
  }),
  updateBundle: t.field({
    type: Bundle,
    description: 'Changes name, description or icon; fields left out (or null) keep their value.',
    args: {
      id: t.arg.id({ required: true, description: 'The bundle to change.' }),
      input: t.arg({ type: UpdateBundleInput, required: true, description: 'The new values.' }),
    },
    resolve: async (_root, { id, input }, { deps, principal }) =>
      bundleWithItemsShape(
        await updateBundle(deps, principal, id, {
          name: input.name ?? undefined,
          description: input.description ?? undefined,
          icon: input.icon ?? undefined,
        }),
        deps.settings.publicUrl,
      ),
  }),
  addFeedToBundle: t.field({
    type: Bundle,
    description: 'Adding a feed twice is harmless.',
    args: {
      bundleId: t.arg.id({ required: true, description: 'The bundle.' }),
      feedId: t.arg.id({ required: true, description: 'One of your feeds.' }),
    },
    resolve: async (_root, { bundleId, feedId }, { deps, principal }) =>
      bundleWithItemsShape(await addFeedToBundle(deps, principal, bundleId, feedId), deps.settings.publicUrl),
  }),
  removeFeedFromBundle: t.field({
    type: Bundle,
    description: 'The feed itself stays; a feed that is not a member is `feed_not_found`.',
    args: {
      bundleId: t.arg.id({ required: true, description: 'The bundle.' }),
      feedId: t.arg.id({ required: true, description: 'The member feed to remove.' }),
    },
    resolve: async (_root, { bundleId, feedId }, { deps, principal }) =>
      bundleShape(await removeFeedFromBundle(deps, principal, bundleId, feedId), deps.settings.publicUrl),
  }),
  deleteBundle: t.field({
    type: DeletionResult,
    description: 'A second delete is `bundle_already_deleted`.',
    args: { id: t.arg.id({ required: true, description: 'The bundle to delete.' }) },
    resolve: (_root, { id }, { deps, principal }) => deleteBundle(deps, principal, id),
  }),
}));
