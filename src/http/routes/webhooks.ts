import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app/deps.js';
import { retryDelivery, sendTestEvent } from '../../app/webhook-deliveries.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveryAttempts,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from '../../app/webhooks.js';
import { tag } from '../openapi-tags.js';
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
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'createWebhook',
        summary: 'Create a webhook',
        description:
          'Where to send `feed_update` events: every feed, some `feeds` or some `bundles`, optionally filtered. The answer carries the signing secret, shown only here and on rotation.',
        tags: [tag.webhooks],
        body: CreateWebhookBody,
        response: { 200: WebhookWithSecret, ...errorResponses, ...targetErrors },
      },
    },
    async (request) => toApiWebhookWithSecret(await createWebhook(deps, principalOf(request), request.body)),
  );

  app.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listWebhooks',
        summary: 'List webhooks',
        description: "The account's webhooks, a page at a time.",
        tags: [tag.webhooks],
        querystring: PageQuery,
        response: { 200: WebhookList, ...errorResponses },
      },
    },
    async (request) => toApiList(await listWebhooks(deps, principalOf(request), request.query), toApiWebhook),
  );

  app.get(
    '/:id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getWebhook',
        summary: 'Retrieve a webhook',
        description: 'Its target, scope, filter and whether it is enabled (and if not, why).',
        tags: [tag.webhooks],
        params: IdParams,
        response: { 200: Webhook, ...errorResponses },
      },
    },
    async (request) => toApiWebhook(await getWebhook(deps, principalOf(request), request.params.id)),
  );

  app.patch(
    '/:id',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'updateWebhook',
        summary: 'Update a webhook',
        description: 'The fields left out keep their values; `enabled: true` re-enables a webhook feedmill disabled.',
        tags: [tag.webhooks],
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: Webhook, ...errorResponses, ...targetErrors },
      },
    },
    async (request) => toApiWebhook(await updateWebhook(deps, principalOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/:id',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description: 'No event is sent to it afterwards.',
        tags: [tag.webhooks],
        params: IdParams,
        response: { 200: DeletionResult, ...errorResponses },
      },
    },
    async (request) => deleteWebhook(deps, principalOf(request), request.params.id),
  );

  app.post(
    '/:id/rotate-secret',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate a webhook's signing secret",
        description: 'A new secret signs every delivery from now on; the answer is the only place it is shown.',
        tags: [tag.webhooks],
        params: IdParams,
        response: { 200: WebhookWithSecret, ...errorResponses },
      },
    },
    async (request) => toApiWebhookWithSecret(await rotateWebhookSecret(deps, principalOf(request), request.params.id)),
  );

  app.post(
    '/:id/test',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a test event',
        description: 'Sends one signed test event to the target at once and answers with the attempt.',
        tags: [tag.webhooks],
        params: IdParams,
        response: { 200: DeliveryAttempt, ...errorResponses },
      },
    },
    async (request) => toApiAttempt(await sendTestEvent(deps, principalOf(request), request.params.id)),
  );

  app.get(
    '/:id/deliveries',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook's deliveries",
        description: 'The call history, newest first: status, latency, attempt and an excerpt of each answer.',
        tags: [tag.webhooks],
        params: IdParams,
        querystring: PageQuery,
        response: { 200: DeliveryList, ...errorResponses },
      },
    },
    async (request) => toApiList(await listDeliveryAttempts(deps, principalOf(request), request.params.id, request.query), toApiAttempt),
  );

  app.post(
    '/:id/deliveries/:deliveryId/retry',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a delivery',
        description: 'Queues the delivery to be attempted again, with the same event id.',
        tags: [tag.webhooks],
        params: DeliveryParams,
        response: { 200: RetryResult, ...errorResponses },
      },
    },
    async (request) => toApiRetryResult(await retryDelivery(deps, principalOf(request), request.params.id, request.params.deliveryId)),
  );
};
