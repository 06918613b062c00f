import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app/deps.js';
import { retryDelivery, sendTestEvent } from '../../app/webhook-deliveries.js';
import { createWebhook, deleteWebhook, getWebhook, listDeliveryAttempts, listWebhooks, rotateWebhookSecret, updateWebhook } from '../../app/webhooks.js';
import { principalOf } from '../plugins/auth.js';
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
    async (request) => createWebhook(deps, principalOf(request), request.body),
  );

  app.get(
    '/',
    { config: { scope: 'read' }, schema: { querystring: PageQuery, response: { 200: WebhookList, ...errorResponses } } },
    async (request) => listWebhooks(deps, principalOf(request), request.query),
  );

  app.get(
    '/:id',
    { config: { scope: 'read' }, schema: { params: IdParams, response: { 200: Webhook, ...errorResponses } } },
    async (request) => getWebhook(deps, principalOf(request), request.params.id),
  );

  app.patch(
    '/:id',
    { config: { scope: 'write' }, schema: { params: IdParams, body: UpdateWebhookBody, response: { 200: Webhook, ...errorResponses, ...targetErrors } } },
    async (request) => updateWebhook(deps, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/:id',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: DeletionResult, ...errorResponses } } },
    async (request) => deleteWebhook(deps, principalOf(request), request.params.id),
  );

  app.post(
    '/:id/rotate-secret',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: WebhookWithSecret, ...errorResponses } } },
    async (request) => rotateWebhookSecret(deps, principalOf(request), request.params.id),
  );

  app.post(
    '/:id/test',
    { config: { scope: 'write' }, schema: { params: IdParams, response: { 200: DeliveryAttempt, ...errorResponses } } },
    async (request) => sendTestEvent(deps, principalOf(request), request.params.id),
  );

  app.get(
    '/:id/deliveries',
    { config: { scope: 'read' }, schema: { params: IdParams, querystring: PageQuery, response: { 200: DeliveryList, ...errorResponses } } },
    async (request) => listDeliveryAttempts(deps, principalOf(request), request.params.id, request.query),
  );

  app.post(
    '/:id/deliveries/:deliveryId/retry',
    { config: { scope: 'write' }, schema: { params: DeliveryParams, response: { 200: RetryResult, ...errorResponses } } },
    async (request) => retryDelivery(deps, principalOf(request), request.params.id, request.params.deliveryId),
  );
};
