import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  addFeedToBundle,
  createBundle,
  deleteBundle,
  getBundle,
  getBundleSettings,
  listBundles,
  removeFeedFromBundle,
  updateBundle,
  updateBundleSettings,
} from '../../app/bundles.js';
import { previewBundleFilters } from '../../app/filter-preview.js';
import { listFeeds } from '../../app/list-feeds.js';
import { hostedFeedUrl } from '../../domain/hosted-urls.js';
import { statusOf } from '../../web/status.js';
import { pageLimits } from '../../domain/pagination.js';
import { fieldErrorOf } from '../forms.js';
import { bundlePage, bundlesPage, type BundleView } from '../pages/bundles.js';
import { confirmPage } from '../pages/confirm.js';
import { keepBlockFormFrom, keepBlockInputs, keepBlockOf } from '../pages/keep-block.js';
import { sendPage, type DashboardOptions } from '../context.js';
import { fieldOf, principalOf, viewerOf, type FormBody } from '../request.js';

type IdParams = { Params: { id: string } };

export const bundleRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  const secretKey = deps.settings.secretKey;
  const page = { limit: pageLimits.maxLimit };

  const renderBundles = async (request: FastifyRequest, form?: { name: string; error?: { field: string; message: string } }) => {
    const list = await listBundles(deps, principalOf(request), page);
    return bundlesPage(assets, { viewer: viewerOf(request, secretKey), bundles: list.data, total: list.total, ...(form ? { form } : {}) });
  };

  app.get('/bundles', async (request, reply) => sendPage(reply, await renderBundles(request)));

  app.post<{ Body: FormBody }>('/bundles', async (request, reply) => {
    const name = fieldOf(request.body, 'name');
    try {
      const { bundle } = await createBundle(deps, principalOf(request), { name, feeds: [] });
      return reply.redirect(`/dashboard/bundles/${bundle.id}`, 303);
    } catch (error) {
      return sendPage(reply, await renderBundles(request, { name, error: fieldErrorOf(error, 'name') }), statusOf.validation_failed);
    }
  });

  const renderBundle = async (request: FastifyRequest, id: string, extra: Partial<BundleView> = {}) => {
    const principal = principalOf(request);
    const [bundle, feeds, settings] = await Promise.all([
      getBundle(deps, principal, id),
      listFeeds(deps, principal, page),
      getBundleSettings(deps, principal, id),
    ]);
    const hostedUrl = hostedFeedUrl(deps.settings.publicUrl, bundle.bundle.id);
    return bundlePage(assets, {
      viewer: viewerOf(request, secretKey),
      bundle,
      hostedUrl,
      feeds: feeds.data,
      filters: settings.filters,
      ...extra,
    });
  };

  app.get<IdParams & { Querystring: { saved?: string } }>('/bundles/:id', async (request, reply) =>
    sendPage(reply, await renderBundle(request, request.params.id, request.query.saved !== undefined ? { notice: 'Saved.' } : {})),
  );

  app.post<IdParams & { Body: FormBody }>('/bundles/:id', async (request, reply) => {
    const edit = { name: fieldOf(request.body, 'name'), description: fieldOf(request.body, 'description') };
    try {
      await updateBundle(deps, principalOf(request), request.params.id, edit);
      return reply.redirect(`/dashboard/bundles/${request.params.id}?saved`, 303);
    } catch (error) {
      const refused = fieldErrorOf(error, 'name', { description: 'description' });
      return sendPage(
        reply,
        await renderBundle(request, request.params.id, { edit: { ...edit, error: refused } }),
        statusOf.validation_failed,
      );
    }
  });

  app.post<IdParams & { Body: FormBody }>('/bundles/:id/feeds', async (request, reply) => {
    try {
      await addFeedToBundle(deps, principalOf(request), request.params.id, fieldOf(request.body, 'feedId'));
      return reply.redirect(`/dashboard/bundles/${request.params.id}?saved`, 303);
    } catch (error) {
      const page = await renderBundle(request, request.params.id, { addError: fieldErrorOf(error, 'feedId') });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  app.post<{ Params: { id: string; feedId: string } }>('/bundles/:id/feeds/:feedId/remove', async (request, reply) => {
    await removeFeedFromBundle(deps, principalOf(request), request.params.id, request.params.feedId);
    return reply.redirect(`/dashboard/bundles/${request.params.id}?saved`, 303);
  });

  app.post<IdParams & { Body: FormBody }>('/bundles/:id/filters', async (request, reply) => {
    const form = keepBlockFormFrom(request.body);
    try {
      const filters = keepBlockOf(form);
      if (fieldOf(request.body, 'action') === 'preview') {
        const preview = await previewBundleFilters(deps, principalOf(request), request.params.id, filters);
        return sendPage(reply, await renderBundle(request, request.params.id, { filtersForm: { ...form, preview } }));
      }
      await updateBundleSettings(deps, principalOf(request), request.params.id, { filters });
      return reply.redirect(`/dashboard/bundles/${request.params.id}?saved`, 303);
    } catch (error) {
      const refused = fieldErrorOf(error, 'filters', keepBlockInputs);
      return sendPage(
        reply,
        await renderBundle(request, request.params.id, { filtersForm: { ...form, error: refused } }),
        statusOf.validation_failed,
      );
    }
  });

  app.get<IdParams>('/bundles/:id/delete', async (request, reply) => {
    const { bundle } = await getBundle(deps, principalOf(request), request.params.id);
    const name = bundle.name || bundle.id;
    return sendPage(
      reply,
      confirmPage(assets, viewerOf(request, secretKey), {
        section: 'bundles',
        title: `Delete ${name}`,
        heading: `Delete ${name}?`,
        warning: 'The bundle and its hosted address go away; its feeds stay. This cannot be undone.',
        action: `/dashboard/bundles/${bundle.id}/delete`,
        button: 'Delete permanently',
        back: `/dashboard/bundles/${bundle.id}`,
      }),
    );
  });

  app.post<IdParams>('/bundles/:id/delete', async (request, reply) => {
    await deleteBundle(deps, principalOf(request), request.params.id);
    return reply.redirect('/dashboard/bundles', 303);
  });
};
