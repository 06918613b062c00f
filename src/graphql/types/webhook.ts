import { retryDelivery, sendTestEvent } from '../../app/webhook-deliveries.js';
import { createWebhook, deleteWebhook, getWebhook, listDeliveryAttempts, listWebhooks, rotateWebhookSecret, updateWebhook, type WebhookInput } from '../../app/webhooks.js';
import { builder } from '../builder.js';
import { parseFiltersJson } from '../filters-json.js';
import { withShapes } from '../shapes/list.js';
import { attemptShape, webhookShape, type AttemptShape, type WebhookShape } from '../shapes/webhook.js';
import { DeletionResult } from './deletion-result.js';
import { listEnvelope, pageArgs, pageQuery } from './list.js';

const WebhookScope = builder.enumType('WebhookScope', { values: ['all', 'feeds', 'bundles'] as const });
const DeliveryOutcome = builder.enumType('DeliveryOutcome', { values: ['succeeded', 'failed'] as const });

/** One entry of a webhook's call history. */
const DeliveryAttempt = builder.objectRef<AttemptShape>('DeliveryAttempt').implement({
  fields: (t) => ({
    delivery_id: t.exposeID('delivery_id'),
    event_id: t.exposeID('event_id'),
    attempt: t.exposeInt('attempt'),
    at: t.exposeString('at'),
    status_code: t.exposeInt('status_code', { nullable: true }),
    latency_ms: t.exposeInt('latency_ms'),
    error: t.exposeString('error', { nullable: true }),
    response_excerpt: t.exposeString('response_excerpt'),
    outcome: t.field({ type: DeliveryOutcome, resolve: (attempt) => attempt.outcome }),
  }),
});
const DeliveryAttemptList = listEnvelope('DeliveryAttemptList', DeliveryAttempt, 'delivery attempts');

const filtersJson = 'The filter as JSON, as in the REST body (README "Webhooks"); null when there is none.';

export const Webhook = builder.objectRef<WebhookShape>('Webhook').implement({
  description: 'A URL that receives signed `feed_update` events.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    scope: t.field({ type: WebhookScope, resolve: (webhook) => webhook.scope }),
    feeds: t.exposeIDList('feeds'),
    bundles: t.exposeIDList('bundles'),
    filters: t.string({ nullable: true, description: filtersJson, resolve: (webhook) => (webhook.filters === null ? null : JSON.stringify(webhook.filters)) }),
    enabled: t.exposeBoolean('enabled'),
    disabled_reason: t.exposeString('disabled_reason', { nullable: true }),
    failing_since: t.exposeString('failing_since', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    secret: t.exposeString('secret', { nullable: true, description: '`whsec_…`, shown only by createWebhook and rotateWebhookSecret.' }),
    deliveries: t.field({
      type: DeliveryAttemptList,
      description: 'The call history, newest first.',
      args: pageArgs,
      resolve: async (webhook, args, { deps, principal }) => withShapes(await listDeliveryAttempts(deps, principal, webhook.id, pageQuery(args)), attemptShape),
    }),
  }),
});

const WebhookList = listEnvelope('WebhookList', Webhook, 'webhooks');

builder.queryFields((t) => ({
  webhook: t.field({
    type: Webhook,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { deps, principal }) => webhookShape(await getWebhook(deps, principal, id)),
  }),
  webhooks: t.field({
    type: WebhookList,
    args: pageArgs,
    resolve: async (_root, args, { deps, principal }) => withShapes(await listWebhooks(deps, principal, pageQuery(args)), (webhook) => webhookShape(webhook)),
  }),
}));

/** Arguments left out keep their value; `filters: null` removes the filter. */
const webhookInput = (args: { url?: string | null; feeds?: string[] | null; bundles?: string[] | null; filters?: string | null; enabled?: boolean | null }): WebhookInput => ({
  url: args.url ?? undefined,
  feeds: args.feeds ?? undefined,
  bundles: args.bundles ?? undefined,
  filters: 'filters' in args ? parseFiltersJson(args.filters) : undefined,
  enabled: args.enabled ?? undefined,
});

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: Webhook,
    description: 'Without `feeds` or `bundles`, every feed of yours; the response carries the signing secret, once.',
    args: {
      url: t.arg.string({ required: true }),
      feeds: t.arg.idList({ required: false }),
      bundles: t.arg.idList({ required: false }),
      filters: t.arg.string({ required: false, description: filtersJson }),
      enabled: t.arg.boolean({ required: false }),
    },
    resolve: async (_root, args, { deps, principal }) => {
      const { webhook, secret } = await createWebhook(deps, principal, { ...webhookInput(args), url: args.url });
      return webhookShape(webhook, secret);
    },
  }),
  updateWebhook: t.field({
    type: Webhook,
    args: {
      id: t.arg.id({ required: true }),
      url: t.arg.string({ required: false }),
      feeds: t.arg.idList({ required: false }),
      bundles: t.arg.idList({ required: false }),
      filters: t.arg.string({ required: false, description: filtersJson }),
      enabled: t.arg.boolean({ required: false }),
    },
    resolve: async (_root, { id, ...args }, { deps, principal }) => webhookShape(await updateWebhook(deps, principal, id, webhookInput(args))),
  }),
  deleteWebhook: t.field({
    type: DeletionResult,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, { deps, principal }) => deleteWebhook(deps, principal, id),
  }),
  rotateWebhookSecret: t.field({
    type: Webhook,
    description: 'A new secret (in `secret`); the old one keeps signing for 24 hours.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { deps, principal }) => {
      const { webhook, secret } = await rotateWebhookSecret(deps, principal, id);
      return webhookShape(webhook, secret);
    },
  }),
  testWebhook: t.field({
    type: DeliveryAttempt,
    description: 'Sends one signed test event now and returns how the receiver answered.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, { deps, principal }) => attemptShape(await sendTestEvent(deps, principal, id)),
  }),
  retryWebhookDelivery: t.field({
    type: 'ID',
    description: 'Tries a delivery again now; returns its id.',
    args: { webhookId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: async (_root, { webhookId, deliveryId }, { deps, principal }) => (await retryDelivery(deps, principal, webhookId, deliveryId)).id,
  }),
}));
