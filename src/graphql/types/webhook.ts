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
import { builder } from '../builder.js';
import { withShapes } from '../shapes/list.js';
import { attemptShape, webhookShape, type AttemptShape, type WebhookShape } from '../shapes/webhook.js';
import { DeletionResult } from './deletion-result.js';
import { upperCaseValues } from './enum-values.js';
import { filterFromInput, ItemFilter, ItemFilterInput } from './item-filter.js';
import { listEnvelope, pageArgs, pageQuery } from './list.js';

const WebhookScope = builder.enumType('WebhookScope', {
  description: 'Whose events a webhook receives.',
  values: upperCaseValues({
    all: 'Every feed of the account, those created later too.',
    feeds: 'The feeds listed in `feeds`.',
    bundles: 'The feeds that are members of the bundles in `bundles` when each event happens.',
  }),
});
const DeliveryOutcome = builder.enumType('DeliveryOutcome', {
  description: 'How a delivery attempt ended.',
  values: upperCaseValues({
    succeeded: 'The receiver answered 2xx in time.',
    failed: 'Any other answer, or none in time; the delivery is retried on its schedule.',
  }),
});

/** One entry of a webhook's call history. */
const DeliveryAttempt = builder.objectRef<AttemptShape>('DeliveryAttempt').implement({
  description: 'One try at delivering an event to a webhook, as the call history shows it.',
  fields: (t) => ({
    delivery_id: t.exposeID('delivery_id', {
      description: 'The delivery (`dlv_…`): one event to one webhook, over all its attempts; `retryWebhookDelivery` takes it.',
    }),
    event_id: t.exposeID('event_id', { description: 'The event sent (`evt_…`), also the `webhook-id` header.' }),
    attempt: t.exposeInt('attempt', { description: 'Which try of the delivery this was, from 1.' }),
    at: t.exposeString('at', { description: 'When the try started (ISO 8601 UTC).' }),
    status_code: t.exposeInt('status_code', {
      nullable: true,
      description: "The receiver's HTTP status; null when no answer came (timeout, refused connection).",
    }),
    latency_ms: t.exposeInt('latency_ms', { description: 'How long the try took, in milliseconds.' }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Our error code when the try failed before or without an answer; null otherwise.',
    }),
    response_excerpt: t.exposeString('response_excerpt', { description: "The start of the receiver's answer, at most 4 KiB." }),
    outcome: t.field({
      type: DeliveryOutcome,
      description: 'Whether the try counted as a success.',
      resolve: (attempt) => attempt.outcome,
    }),
  }),
});
const DeliveryAttemptList = listEnvelope('DeliveryAttemptList', DeliveryAttempt, 'delivery attempts');

export const Webhook = builder.objectRef<WebhookShape>('Webhook').implement({
  description: 'A URL that receives signed `feed_update` events.',
  fields: (t) => ({
    id: t.exposeID('id', { description: '`wh_…`.' }),
    url: t.exposeString('url', { description: 'The address that receives the events.' }),
    scope: t.field({ type: WebhookScope, description: 'Whose events it receives.', resolve: (webhook) => webhook.scope }),
    feeds: t.exposeIDList('feeds', { description: 'The feeds it covers when `scope` is `FEEDS`; empty otherwise.' }),
    bundles: t.exposeIDList('bundles', { description: 'The bundles it covers when `scope` is `BUNDLES`; empty otherwise.' }),
    filters: t.field({
      type: ItemFilter,
      nullable: true,
      description: 'Only events with an item that matches it are sent; null: every event.',
      resolve: (webhook) => webhook.filters,
    }),
    enabled: t.exposeBoolean('enabled', { description: 'False when switched off, by its owner or by feedmill (see `disabledReason`).' }),
    disabled_reason: t.exposeString('disabled_reason', {
      nullable: true,
      description:
        'Why feedmill disabled it (the receiver answered 410 Gone, or every delivery failed for FEEDMILL_WEBHOOK_DISABLE_AFTER); null when enabled or switched off by its owner.',
    }),
    failing_since: t.exposeString('failing_since', {
      nullable: true,
      description: 'Since when every delivery has failed (ISO 8601 UTC); null while deliveries succeed.',
    }),
    created_at: t.exposeString('created_at', { description: 'ISO 8601 UTC.' }),
    updated_at: t.exposeString('updated_at', { description: 'When it last changed (ISO 8601 UTC).' }),
    secret: t.exposeString('secret', { nullable: true, description: '`whsec_…`, shown only by createWebhook and rotateWebhookSecret.' }),
    deliveries: t.field({
      type: DeliveryAttemptList,
      description: 'The call history, newest first.',
      args: pageArgs,
      resolve: async (webhook, args, { deps, principal }) =>
        withShapes(await listDeliveryAttempts(deps, principal, webhook.id, pageQuery(args)), attemptShape),
    }),
  }),
});

const WebhookList = listEnvelope('WebhookList', Webhook, 'webhooks');

builder.queryFields((t) => ({
  webhook: t.field({
    type: Webhook,
    description: "One of your webhooks. Another account's webhook is `webhook_not_found`.",
    args: { id: t.arg.id({ required: true, description: 'The webhook (`wh_…`).' }) },
    resolve: async (_root, { id }, { deps, principal }) => webhookShape(await getWebhook(deps, principal, id)),
  }),
  webhooks: t.field({
    type: WebhookList,
    description: 'Your webhooks, newest first.',
    args: pageArgs,
    resolve: async (_root, args, { deps, principal }) =>
      withShapes(await listWebhooks(deps, principal, pageQuery(args)), (webhook) => webhookShape(webhook)),
  }),
}));

const targetDoc = 'The http(s) address that receives the signed events; checked against the address rules when set (README "Security").';
const feedsDoc = 'Only events of these feeds of yours; not together with `bundles`.';
const bundlesDoc = 'Only events of the feeds in these bundles of yours at the time of each event; not together with `feeds`.';
const filtersDoc = 'Only events with an item that matches it are sent, with only the matching items; null: every event.';

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  description: 'What `createWebhook` needs: without `feeds` or `bundles` it receives the events of every feed of yours.',
  fields: (t) => ({
    url: t.string({ required: true, description: targetDoc }),
    feeds: t.idList({ required: false, description: feedsDoc }),
    bundles: t.idList({ required: false, description: bundlesDoc }),
    filters: t.field({ type: ItemFilterInput, required: false, description: filtersDoc }),
    enabled: t.boolean({ required: false, description: 'False creates it switched off. Default: true.' }),
  }),
});

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  description: 'What `updateWebhook` changes; a field left out keeps its value.',
  fields: (t) => ({
    url: t.string({ required: false, description: targetDoc }),
    feeds: t.idList({ required: false, description: `${feedsDoc} Setting it makes the webhook scoped to feeds.` }),
    bundles: t.idList({ required: false, description: `${bundlesDoc} Setting it makes the webhook scoped to bundles.` }),
    filters: t.field({ type: ItemFilterInput, required: false, description: `${filtersDoc} Null removes the filter.` }),
    enabled: t.boolean({
      required: false,
      description: 'False switches it off; true switches it on again and clears why it was disabled.',
    }),
  }),
});

interface WebhookInputShape {
  url?: string | null;
  feeds?: string[] | null;
  bundles?: string[] | null;
  filters?: object | null;
  enabled?: boolean | null;
}

/** Fields left out (or null) keep their value, except `filters`, where null removes the filter. */
const webhookInput = (input: WebhookInputShape): WebhookInput => ({
  url: input.url ?? undefined,
  feeds: input.feeds ?? undefined,
  bundles: input.bundles ?? undefined,
  filters: 'filters' in input ? (input.filters ? filterFromInput(input.filters) : null) : undefined,
  enabled: input.enabled ?? undefined,
});

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: Webhook,
    description: 'Without `feeds` or `bundles`, every feed of yours; the response carries the signing secret, once.',
    args: { input: t.arg({ type: CreateWebhookInput, required: true, description: 'The target, its scope and its filter.' }) },
    resolve: async (_root, { input }, { deps, principal }) => {
      const { webhook, secret } = await createWebhook(deps, principal, { ...webhookInput(input), url: input.url });
      return webhookShape(webhook, secret);
    },
  }),
  updateWebhook: t.field({
    type: Webhook,
    description: 'Changes the target, scope, filter or whether it is enabled; fields left out keep their value.',
    args: {
      id: t.arg.id({ required: true, description: 'The webhook to change (`wh_…`).' }),
      input: t.arg({ type: UpdateWebhookInput, required: true, description: 'The new values.' }),
    },
    resolve: async (_root, { id, input }, { deps, principal }) =>
      webhookShape(await updateWebhook(deps, principal, id, webhookInput(input))),
  }),
  deleteWebhook: t.field({
    type: DeletionResult,
    description: 'No more events are sent to it; a second delete is `webhook_not_found`.',
    args: { id: t.arg.id({ required: true, description: 'The webhook to delete.' }) },
    resolve: (_root, { id }, { deps, principal }) => deleteWebhook(deps, principal, id),
  }),
  rotateWebhookSecret: t.field({
    type: Webhook,
    description: 'A new secret (in `secret`); the old one keeps signing for 24 hours.',
    args: { id: t.arg.id({ required: true, description: 'The webhook whose secret changes.' }) },
    resolve: async (_root, { id }, { deps, principal }) => {
      const { webhook, secret } = await rotateWebhookSecret(deps, principal, id);
      return webhookShape(webhook, secret);
    },
  }),
  testWebhook: t.field({
    type: DeliveryAttempt,
    description: 'Sends one signed test event now and returns how the receiver answered.',
    args: { id: t.arg.id({ required: true, description: 'The webhook to test.' }) },
    resolve: async (_root, { id }, { deps, principal }) => attemptShape(await sendTestEvent(deps, principal, id)),
  }),
  retryWebhookDelivery: t.field({
    type: 'ID',
    description: 'Tries a delivery again now; returns its id.',
    args: {
      webhookId: t.arg.id({ required: true, description: 'The webhook (`wh_…`).' }),
      deliveryId: t.arg.id({ required: true, description: 'The delivery to try again (`dlv_…`), from `Webhook.deliveries`.' }),
    },
    resolve: async (_root, { webhookId, deliveryId }, { deps, principal }) =>
      (await retryDelivery(deps, principal, webhookId, deliveryId)).id,
  }),
}));
