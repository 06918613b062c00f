import { addFeedToBundle, createBundle, deleteBundle, getBundle, listBundles, removeFeedFromBundle, updateBundle } from '../../app/bundles.js';
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
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    icon: t.exposeString('icon'),
    rss_feed_url: t.exposeString('rss_feed_url'),
    feeds: t.exposeIDList('feeds', { description: 'Ids of the member feeds, in the order they were added.' }),
    items: t.field({
      type: [FeedItem],
      description: "The newest items of its feeds, merged; without `sort`, the bundle's own preference applies.",
      args: { sort: t.arg({ type: ItemSort, required: false }) },
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
    args: { id: t.arg.id({ required: true }), sort: t.arg({ type: ItemSort, required: false }) },
    resolve: async (_root, { id, sort }, { deps, principal }) => bundleWithItemsShape(await getBundle(deps, principal, id, sort ?? undefined), deps.settings.publicUrl),
  }),
  bundles: t.field({
    type: BundleList,
    description: 'Your bundles, newest first.',
    args: pageArgs,
    resolve: async (_root, args, { deps, principal }) => withShapes(await listBundles(deps, principal, pageQuery(args)), (bundle) => bundleShape(bundle, deps.settings.publicUrl)),
  }),
}));

builder.mutationFields((t) => ({
  createBundle: t.field({
    type: Bundle,
    description: 'Every listed feed must be yours (`feed_not_found` otherwise).',
    args: { name: t.arg.string({ required: true }), feeds: t.arg.idList({ required: true }) },
    resolve: async (_root, { name, feeds }, { deps, principal }) => bundleWithItemsShape(await createBundle(deps, principal, { name, feeds }), deps.settings.publicUrl),
  }),
  updateBundle: t.field({
    type: Bundle,
    description: 'Changes name, description or icon; fields left out (or null) keep their value.',
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      icon: t.arg.string({ required: false }),
    },
    resolve: async (_root, { id, name, description, icon }, { deps, principal }) =>
      bundleWithItemsShape(await updateBundle(deps, principal, id, { name: name ?? undefined, description: description ?? undefined, icon: icon ?? undefined }), deps.settings.publicUrl),
  }),
  addFeedToBundle: t.field({
    type: Bundle,
    description: 'Adding a feed twice is harmless.',
    args: { bundleId: t.arg.id({ required: true }), feedId: t.arg.id({ required: true }) },
    resolve: async (_root, { bundleId, feedId }, { deps, principal }) => bundleWithItemsShape(await addFeedToBundle(deps, principal, bundleId, feedId), deps.settings.publicUrl),
  }),
  removeFeedFromBundle: t.field({
    type: Bundle,
    args: { bundleId: t.arg.id({ required: true }), feedId: t.arg.id({ required: true }) },
    resolve: async (_root, { bundleId, feedId }, { deps, principal }) => bundleShape(await removeFeedFromBundle(deps, principal, bundleId, feedId), deps.settings.publicUrl),
  }),
  deleteBundle: t.field({
    type: DeletionResult,
    description: 'A second delete is `bundle_already_deleted`.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { deps, principal }) => deleteBundle(deps, principal, id),
  }),
}));
