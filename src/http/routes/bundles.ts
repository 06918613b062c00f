import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  addFeedToBundle,
  createBundle,
  deleteBundle,
  listBundles,
  removeFeedFromBundle,
  updateBundle,
  getBundleSettings,
  updateBundleSettings,
  viewBundle,
} from '../../app/bundles.js';
import { previewBundleFilters } from '../../app/filter-preview.js';
import type { AppDeps } from '../../app/deps.js';
import { tag } from '../openapi-tags.js';
import { principalOf } from '../plugins/auth.js';
import { toApiBundle, toApiBundleWithItems } from '../wire/bundle.js';
import { toApiList } from '../wire/list.js';
import {
  Bundle,
  BundleFeedParams,
  BundleList,
  BundleSettings,
  BundleWithItems,
  CreateBundleBody,
  UpdateBundleBody,
  UpdateBundleSettingsBody,
} from '../schemas/bundle.js';
import { FilterPreview, FilterPreviewBody } from '../schemas/feed.js';
import { toFilterPreview } from './filter-preview.js';
import { createResponseCache, sendCached } from '../response-cache.js';
import { DeletionResult, errorResponses, IdParams, PageQuery, SortQuery } from '../schemas/common.js';

/** Spec "Endpoints → Bundles", mounted at `/bundles` and `/bundled`. */
export const bundleRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'createBundle',
        summary: 'Create a bundle',
        description: 'A named group of feeds whose items are merged; the answer holds the merged items.',
        tags: [tag.bundles],
        body: CreateBundleBody,
        response: { 200: BundleWithItems, ...errorResponses },
      },
    },
    async (request) => toApiBundleWithItems(await createBundle(deps, principalOf(request), request.body), deps.settings.publicUrl),
  );

  app.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listBundles',
        summary: 'List bundles',
        description: "The account's bundles, a page at a time, without their items.",
        tags: [tag.bundles],
        querystring: PageQuery,
        response: { 200: BundleList, ...errorResponses },
      },
    },
    async (request) =>
      toApiList(await listBundles(deps, principalOf(request), request.query), (bundle) => toApiBundle(bundle, deps.settings.publicUrl)),
  );

  // The body of GET /:id per bundle and version: merging a thousand items is read, merged and
  // serialized once per change of the bundle or a member, not once per request.
  const bundleBodies = createResponseCache();
  app.get(
    '/:id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getBundle',
        summary: 'Retrieve a bundle with its merged items',
        description:
          "The bundle and its feeds' items merged, in the order of `sort` (or the bundle's own), after each feed's filters and the bundle's.",
        tags: [tag.bundles],
        params: IdParams,
        querystring: SortQuery,
        response: { 200: BundleWithItems, ...errorResponses },
      },
    },
    async (request, reply) => {
      const view = await viewBundle(deps, principalOf(request), request.params.id, request.query.sort);
      return sendCached(reply, bundleBodies, `${request.params.id} ${request.query.sort ?? ''}`, view.version, async () =>
        toApiBundleWithItems(await view.content(), deps.settings.publicUrl),
      );
    },
  );

  app.patch(
    '/:id',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'updateBundle',
        summary: 'Update a bundle',
        description: 'Changes the name, description or icon; the fields left out keep their values.',
        tags: [tag.bundles],
        params: IdParams,
        body: UpdateBundleBody,
        response: { 200: BundleWithItems, ...errorResponses },
      },
    },
    async (request) =>
      toApiBundleWithItems(await updateBundle(deps, principalOf(request), request.params.id, request.body), deps.settings.publicUrl),
  );

  app.get(
    '/:id/settings',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getBundleSettings',
        summary: "Retrieve a bundle's settings",
        description: 'Default sort and keep/block filters.',
        tags: [tag.bundles],
        params: IdParams,
        response: { 200: BundleSettings, ...errorResponses },
      },
    },
    async (request) => getBundleSettings(deps, principalOf(request), request.params.id),
  );

  app.patch(
    '/:id/settings',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'updateBundleSettings',
        summary: "Change a bundle's settings",
        description: '`filters: null` removes both filters.',
        tags: [tag.bundles],
        params: IdParams,
        body: UpdateBundleSettingsBody,
        response: { 200: BundleSettings, ...errorResponses },
      },
    },
    async (request) => updateBundleSettings(deps, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/:id/filters/preview',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'previewBundleFilters',
        summary: 'Dry-run keep/block filters on a bundle',
        description: 'Shows what the given filters would keep and drop among the newest merged items; nothing is saved.',
        tags: [tag.bundles],
        params: IdParams,
        body: FilterPreviewBody,
        response: { 200: FilterPreview, ...errorResponses },
      },
    },
    async (request) => toFilterPreview(await previewBundleFilters(deps, principalOf(request), request.params.id, request.body.filters)),
  );

  app.put(
    '/:id/feeds/:feedId',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'addFeedToBundle',
        summary: 'Add a feed to a bundle',
        description: 'Adding a feed that is already in the bundle changes nothing.',
        tags: [tag.bundles],
        params: BundleFeedParams,
        response: { 200: BundleWithItems, ...errorResponses },
      },
    },
    async (request) =>
      toApiBundleWithItems(
        await addFeedToBundle(deps, principalOf(request), request.params.id, request.params.feedId),
        deps.settings.publicUrl,
      ),
  );

  app.delete(
    '/:id/feeds/:feedId',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'removeFeedFromBundle',
        summary: 'Remove a feed from a bundle',
        description: 'The answer is the bundle without its items.',
        tags: [tag.bundles],
        params: BundleFeedParams,
        response: { 200: Bundle, ...errorResponses },
      },
    },
    async (request) =>
      toApiBundle(
        await removeFeedFromBundle(deps, principalOf(request), request.params.id, request.params.feedId),
        deps.settings.publicUrl,
      ),
  );

  app.delete(
    '/:id',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'deleteBundle',
        summary: 'Delete a bundle',
        description: 'Its feeds are kept. Deleting it again is 404 `bundle_already_deleted`.',
        tags: [tag.bundles],
        params: IdParams,
        response: { 200: DeletionResult, ...errorResponses },
      },
    },
    async (request) => deleteBundle(deps, principalOf(request), request.params.id),
  );
};
