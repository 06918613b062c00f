import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app/deps.js';
import { retryDelivery, sendTestEvent } from '../../app/webhook-deliveries.js';
import { createWebhook, deleteWebhook, getWebhook, listDeliveryAttempts, listWebhooks, rotateWebhookSecret, updateWebhook } from '../../app/webhooks.js';
import { principalOf } from '../plugins/auth.js';
import { toApiList } from '../wire/list.js';
import { toApiAttempt, toApiRetryResult, toApiWebhook, toApiWebhookWithSecret } from '../wire/webhook.js';
import { DeletionResult, ErrorBody, errorResponses, IdParams, PageQuery } from '../schemas/common.js';
import {
  CreateWebhookBody,
  DeliveryAttempt,
  DeliveryList,
  DeliveryParams,
  RetryResult,
  UpdateWebhookBody,
  Webhook,
  WebhookList,
  WebhookWithSecret,
} from '../schemas/webhook.js';

/** A target refused by the address rule when it is set: `address_not_allowed`, like a source. */
const targetErrors = { 402: ErrorBody };

/** DESIGN.md "Webhooks": management, test, call history and manual retry. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/',
    { config: { scope: 'write' }, schema: { body: CreateWebhookBody, response: { 200: WebhookWithSecret, ...errorResponses, ...targetErrors } } },
    async (request) => toApiWebhookWithSecret(await createWebhook(deps, principalOf(request), request.body)),
  );

  app.get(
    '/',
    { config: { scope: 'read' }, schema: { querystring: PageQuery, response: { 200: WebhookList, ...errorResponses } } },
    async (request) => toApiList(await listWebhooks(deps, principalOf(request), request.query), toApiWebhook),
  );

  app.get(
    '/:id',
    { config: { scope: 'read' }, schema: { params: IdParams, response: { 200: Webhook, ...errorResponses } } },
    async (request) => toApiWebhook(await getWebhook(deps, principalOf(request), request.params.id)),
  );

  app.patch(
    '/:id',
    { config: { scope: 'write' }, schema: { params: IdParams, body: UpdateWebhookBody, response: { 200: Webhook, ...errorResponses, ...targetErrors } } },
    async (request) => toApiWebhook(await updateWebhook(deps, principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: DeletionResult, ...errorResponses } } },
    async (request) => deleteWebhook(deps, principalOf(request), request.params.id),
  );

  app.post(
    '/:id/rotate-secret',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: WebhookWithSecret, ...errorResponses } } },
    async (request) => toApiWebhookWithSecret(await rotateWebhookSecret(deps, principalOf(request), request.params.id)),
  );

  app.post(
    '/:id/test',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: DeliveryAttempt, ...errorResponses } } },
    async (request) => toApiAttempt(await sendTestEvent(deps, principalOf(request), request.params.id)),
  );

  app.get(
    '/:id/deliveries',
    { config: { scope: 'read' }, schema: { params: IdParams, querystring: PageQuery, response: { 200: DeliveryList, ...errorResponses } } },
    async (request) => toApiList(await listDeliveryAttempts(deps, principalOf(request), request.params.id, request.query), toApiAttempt),
  );

  app.post(
    '/:id/deliveries/:deliveryId/retry',
    { config: { scope: 'write' }, schema: { params: DeliveryParams, response: { 200: RetryResult, ...errorResponses } } },
    async (request) => toApiRetryResult(await retryDelivery(deps, principalOf(request), request.params.id, request.params.deliveryId)),
  );
};
