import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  addFeedToBundle,
  createBundle,
  deleteBundle,
  getBundle,
  listBundles,
  removeFeedFromBundle,
  updateBundle,
  getBundleSettings,
  updateBundleSettings,
} from '../../app/bundles.js';
import { previewBundleFilters } from '../../app/filter-preview.js';
import type { AppDeps } from '../../app/deps.js';
import { principalOf } from '../plugins/auth.js';
import { toApiBundle, toApiBundleWithItems } from '../wire/bundle.js';
import { toApiList } from '../wire/list.js';
import { Bundle, BundleFeedParams, BundleList, BundleSettings, BundleWithItems, CreateBundleBody, UpdateBundleBody, UpdateBundleSettingsBody } from '../schemas/bundle.js';
import { FilterPreview, FilterPreviewBody } from '../schemas/feed.js';
import { toFilterPreview } from './filter-preview.js';
import { DeletionResult, errorResponses, IdParams, PageQuery, SortQuery } from '../schemas/common.js';

/** Spec "Endpoints → Bundles", mounted at `/bundles` and `/bundled`. */
export const bundleRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/',
    { config: { scope: 'write' }, schema: { body: CreateBundleBody, response: { 200: BundleWithItems, ...errorResponses } } },
    async (request) => toApiBundleWithItems(await createBundle(deps, principalOf(request), request.body), deps.settings.publicUrl),
  );

  app.get(
    '/',
    { config: { scope: 'read' }, schema: { querystring: PageQuery, response: { 200: BundleList, ...errorResponses } } },
    async (request) => toApiList(await listBundles(deps, principalOf(request), request.query), (bundle) => toApiBundle(bundle, deps.settings.publicUrl)),
  );

  app.get(
    '/:id',
    { config: { scope: 'read' }, schema: { params: IdParams, querystring: SortQuery, response: { 200: BundleWithItems, ...errorResponses } } },
    async (request) => toApiBundleWithItems(await getBundle(deps, principalOf(request), request.params.id, request.query.sort), deps.settings.publicUrl),
  );

  app.patch(
    '/:id',
    { config: { scope: 'write' }, schema: { params: IdParams, body: UpdateBundleBody, response: { 200: BundleWithItems, ...errorResponses } } },
    async (request) => toApiBundleWithItems(await updateBundle(deps, principalOf(request), request.params.id, request.body), deps.settings.publicUrl),
  );

  app.get(
    '/:id/settings',
    { config: { scope: 'read' }, schema: { params: IdParams, response: { 200: BundleSettings, ...errorResponses } } },
    async (request) => getBundleSettings(deps, principalOf(request), request.params.id),
  );

  app.patch(
    '/:id/settings',
    { config: { scope: 'write' }, schema: { params: IdParams, body: UpdateBundleSettingsBody, response: { 200: BundleSettings, ...errorResponses } } },
    async (request) => updateBundleSettings(deps, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/:id/filters/preview',
    { config: { scope: 'read' }, schema: { params: IdParams, body: FilterPreviewBody, response: { 200: FilterPreview, ...errorResponses } } },
    async (request) => toFilterPreview(await previewBundleFilters(deps, principalOf(request), request.params.id, request.body.filters)),
  );

  app.put(
    '/:id/feeds/:feedId',
    { config: { scope: 'write' }, schema: { params: BundleFeedParams, response: { 200: BundleWithItems, ...errorResponses } } },
    async (request) => toApiBundleWithItems(await addFeedToBundle(deps, principalOf(request), request.params.id, request.params.feedId), deps.settings.publicUrl),
  );

  app.delete(
    '/:id/feeds/:feedId',
    { config: { scope: 'write' }, schema: { params: BundleFeedParams, response: { 200: Bundle, ...errorResponses } } },
    async (request) => toApiBundle(await removeFeedFromBundle(deps, principalOf(request), request.params.id, request.params.feedId), deps.settings.publicUrl),
  );

  app.delete(
    '/:id',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: DeletionResult, ...errorResponses } } },
    async (request) => deleteBundle(deps, principalOf(request), request.params.id),
  );
};
