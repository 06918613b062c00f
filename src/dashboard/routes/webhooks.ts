import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { listBundles } from '../../app/bundles.js';
import { previewWebhookFilter } from '../../app/filter-preview.js';
import { listFeeds } from '../../app/list-feeds.js';
import { retryDelivery, sendTestEvent } from '../../app/webhook-deliveries.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveryAttempts,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookInput,
} from '../../app/webhooks.js';
import { statusOf } from '../../web/status.js';
import { FeedmillError } from '../../domain/errors.js';
import { pageLimits } from '../../domain/pagination.js';
import { filterFormFrom, filterOf } from '../filter-form.js';
import { fieldErrorOf } from '../forms.js';
import { confirmPage } from '../pages/confirm.js';
import { webhookPage, webhooksPage, type WebhookForm, type WebhookView } from '../pages/webhooks.js';
import { sendPage, type DashboardOptions } from '../context.js';
import { fieldOf, principalOf, valuesOf, viewerOf, type FormBody } from '../request.js';

type IdParams = { Params: { id: string } };

function formOf(body: FormBody): WebhookForm {
  const scope = fieldOf(body, 'scope');
  return {
    url: fieldOf(body, 'url').trim(),
    scope: scope === 'feeds' || scope === 'bundles' ? scope : 'all',
    feeds: valuesOf(body, 'feeds'),
    bundles: valuesOf(body, 'bundles'),
    filter: filterFormFrom(body),
  };
}

/** The form as the use case's input; filters are the same JSON the REST API takes. */
function inputOf(form: WebhookForm): WebhookInput & { url: string } {
  const filters = filterOf(form.filter);
  if (form.scope === 'feeds' && form.feeds.length === 0)
    throw new FeedmillError('validation_failed', 'Choose at least one feed for “Some feeds”, or pick “All feeds”');
  if (form.scope === 'bundles' && form.bundles.length === 0)
    throw new FeedmillError('validation_failed', 'Choose at least one bundle for “Some bundles”, or pick “All feeds”');
  return {
    url: form.url,
    filters,
    ...(form.scope === 'all' ? { scope: 'all' as const } : {}),
    ...(form.scope === 'feeds' ? { feeds: [...form.feeds] } : {}),
    ...(form.scope === 'bundles' ? { bundles: [...form.bundles] } : {}),
  };
}

/** The inputs a refusal can name; anything else (an unknown feed or bundle) concerns the scope. */
const webhookInputs = { url: 'url', filters: 'filters' };

export const webhookRoutes: FastifyPluginAsync<DashboardOptions> = async (app, { deps, assets }) => {
  const secretKey = deps.settings.secretKey;
  const page = { limit: pageLimits.maxLimit };
  const choices = async (request: FastifyRequest) => {
    const principal = principalOf(request);
    const [feeds, bundles] = await Promise.all([listFeeds(deps, principal, page), listBundles(deps, principal, page)]);
    return { feeds: feeds.data, bundles: bundles.data };
  };

  const preview = async (request: FastifyRequest, form: WebhookForm) => {
    const { filters, feeds, bundles } = inputOf(form);
    return previewWebhookFilter(deps, principalOf(request), { filters, ...(feeds ? { feeds } : {}), ...(bundles ? { bundles } : {}) });
  };

  const renderWebhooks = async (request: FastifyRequest, form?: WebhookForm) => {
    const list = await listWebhooks(deps, principalOf(request), page);
    return webhooksPage(assets, {
      viewer: viewerOf(request, secretKey),
      webhooks: list.data,
      ...(await choices(request)),
      ...(form ? { form } : {}),
    });
  };

  const renderWebhook = async (request: FastifyRequest, id: string, extra: Partial<WebhookView> = {}) => {
    const principal = principalOf(request);
    const [webhook, attempts] = await Promise.all([getWebhook(deps, principal, id), listDeliveryAttempts(deps, principal, id, page)]);
    return webhookPage(assets, {
      viewer: viewerOf(request, secretKey),
      webhook,
      attempts: attempts.data,
      ...(await choices(request)),
      ...extra,
    });
  };

  app.get('/webhooks', async (request, reply) => sendPage(reply, await renderWebhooks(request)));

  // The signing secret is in this response only, so the new webhook's page is rendered here.
  app.post<{ Body: FormBody }>('/webhooks', async (request, reply) => {
    const form = formOf(request.body);
    try {
      if (fieldOf(request.body, 'action') === 'preview')
        return sendPage(reply, await renderWebhooks(request, { ...form, preview: await preview(request, form) }));
      const created = await createWebhook(deps, principalOf(request), inputOf(form));
      return sendPage(reply, await renderWebhook(request, created.webhook.id, { secret: created.secret, notice: 'Webhook added.' }));
    } catch (error) {
      const page = await renderWebhooks(request, { ...form, error: fieldErrorOf(error, 'scope', webhookInputs) });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  app.get<IdParams & { Querystring: { notice?: string } }>('/webhooks/:id', async (request, reply) => {
    const notices: Record<string, string> = {
      saved: 'Saved.',
      tested: 'Test request sent; its answer is at the top of the call history.',
      retried: 'Delivery queued again.',
      enabled: 'Re-enabled.',
    };
    const notice = notices[request.query.notice ?? ''];
    return sendPage(reply, await renderWebhook(request, request.params.id, notice ? { notice } : {}));
  });

  app.post<IdParams & { Body: FormBody }>('/webhooks/:id', async (request, reply) => {
    const form = formOf(request.body);
    try {
      if (fieldOf(request.body, 'action') === 'preview') {
        return sendPage(
          reply,
          await renderWebhook(request, request.params.id, { form: { ...form, preview: await preview(request, form) } }),
        );
      }
      const input = inputOf(form);
      // Scope "all" is the absence of both lists; the update sets what the form shows.
      await updateWebhook(deps, principalOf(request), request.params.id, input);
      return reply.redirect(`/dashboard/webhooks/${request.params.id}?notice=saved`, 303);
    } catch (error) {
      const page = await renderWebhook(request, request.params.id, {
        form: { ...form, error: fieldErrorOf(error, 'scope', webhookInputs) },
      });
      return sendPage(reply, page, statusOf.validation_failed);
    }
  });

  app.post<IdParams>('/webhooks/:id/test', async (request, reply) => {
    await sendTestEvent(deps, principalOf(request), request.params.id);
    return reply.redirect(`/dashboard/webhooks/${request.params.id}?notice=tested`, 303);
  });

  app.post<{ Params: { id: string; deliveryId: string } }>('/webhooks/:id/deliveries/:deliveryId/retry', async (request, reply) => {
    await retryDelivery(deps, principalOf(request), request.params.id, request.params.deliveryId);
    return reply.redirect(`/dashboard/webhooks/${request.params.id}?notice=retried`, 303);
  });

  app.post<IdParams>('/webhooks/:id/rotate-secret', async (request, reply) => {
    const rotated = await rotateWebhookSecret(deps, principalOf(request), request.params.id);
    return sendPage(
      reply,
      await renderWebhook(request, request.params.id, {
        secret: rotated.secret,
        notice: 'New secret made; the old one signs beside it for 24 hours.',
      }),
    );
  });

  app.post<IdParams>('/webhooks/:id/enable', async (request, reply) => {
    await updateWebhook(deps, principalOf(request), request.params.id, { enabled: true });
    return reply.redirect(`/dashboard/webhooks/${request.params.id}?notice=enabled`, 303);
  });

  app.get<IdParams>('/webhooks/:id/delete', async (request, reply) => {
    const webhook = await getWebhook(deps, principalOf(request), request.params.id);
    return sendPage(
      reply,
      confirmPage(assets, viewerOf(request, secretKey), {
        section: 'webhooks',
        title: 'Delete webhook',
        heading: `Delete the webhook to ${webhook.url}?`,
        warning: 'No more calls go to this address, and its call history goes too. This cannot be undone.',
        action: `/dashboard/webhooks/${webhook.id}/delete`,
        button: 'Delete permanently',
        back: `/dashboard/webhooks/${webhook.id}`,
      }),
    );
  });

  app.post<IdParams>('/webhooks/:id/delete', async (request, reply) => {
    await deleteWebhook(deps, principalOf(request), request.params.id);
    return reply.redirect('/dashboard/webhooks', 303);
  });
};
