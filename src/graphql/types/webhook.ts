import { retryDelivery, sendTestEvent } from '../../app/webhook-deliveries.js';
import * as webhooks from '../../app/webhooks.js';
import { builder } from '../builder.js';
import type { DeliveryAttempt as Attempt } from '../../domain/delivery.js';
import type { Webhook as WebhookValue } from '../../domain/webhook.js';
import { DeletionResult } from './deletion-result.js';
import { upperCaseValues } from './enum-values.js';
import { filterFromInput, ItemFilter, ItemFilterInput } from './item-filter.js';
import { pageArgs, pageQuery, pageType } from './list.js';

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
const DeliveryAttempt = builder.objectRef<Attempt>('DeliveryAttempt').implement({
  description: 'One try at delivering an event to a webhook, as the call history shows it.',
  fields: (t) => ({
    deliveryId: t.exposeID('deliveryId', {
      description: 'The delivery (`dlv_…`): one event to one webhook, over all its attempts; `retryWebhookDelivery` takes it.',
    }),
    eventId: t.exposeID('eventId', { description: 'The event sent (`evt_…`), also the `webhook-id` header.' }),
    attempt: t.exposeInt('attempt', { description: 'Which try of the delivery this was, from 1.' }),
    at: t.exposeString('at', { description: 'When the try started (ISO 8601 UTC).' }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: "The receiver's HTTP status; null when no answer came (timeout, refused connection).",
    }),
    latencyMs: t.exposeInt('latencyMs', { description: 'How long the try took, in milliseconds.' }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Our error code when the try failed before or without an answer; null otherwise.',
    }),
    responseExcerpt: t.exposeString('responseExcerpt', { description: "The start of the receiver's answer, at most 4 KiB." }),
    outcome: t.field({
      type: DeliveryOutcome,
      description: 'Whether the try counted as a success.',
      resolve: (attempt) => attempt.outcome,
    }),
  }),
});
const DeliveryAttemptPage = pageType('DeliveryAttemptPage', DeliveryAttempt, 'delivery attempts');

/** A webhook, or one with the signing secret that `createWebhook` and `rotateWebhookSecret` show once. */
type WebhookNode = WebhookValue | { webhook: WebhookValue; secret: string };

/** The webhook of a node. A domain Webhook has no `webhook` field, so the check tells the two apart. */
const webhookOf = (node: WebhookNode): WebhookValue => ('webhook' in node ? node.webhook : node);

export const Webhook = builder.objectRef<WebhookNode>('Webhook').implement({
  description: 'A URL that receives signed `feed_update` events.',
  fields: (t) => ({
    id: t.id({ description: '`wh_…`.', resolve: (node) => webhookOf(node).id }),
    url: t.string({ description: 'The address that receives the events.', resolve: (node) => webhookOf(node).url }),
    scope: t.field({ type: WebhookScope, description: 'Whose events it receives.', resolve: (node) => webhookOf(node).scope.kind }),
    feeds: t.idList({
      description: 'The feeds it covers when `scope` is `FEEDS`; empty otherwise.',
      resolve: (node) => {
        const { scope } = webhookOf(node);
        return scope.kind === 'feeds' ? scope.feedIds : [];
      },
    }),
    bundles: t.idList({
      description: 'The bundles it covers when `scope` is `BUNDLES`; empty otherwise.',
      resolve: (node) => {
        const { scope } = webhookOf(node);
        return scope.kind === 'bundles' ? scope.bundleIds : [];
      },
    }),
    filters: t.field({
      type: ItemFilter,
      nullable: true,
      description: 'Only events with an item that matches it are sent; null: every event.',
      resolve: (node) => webhookOf(node).filters,
    }),
    enabled: t.boolean({
      description: 'False when switched off, by its owner or by feedmill (see `disabledReason`).',
      resolve: (node) => webhookOf(node).enabled,
    }),
    disabledReason: t.string({
      nullable: true,
      description:
        'Why feedmill disabled it (the receiver answered 410 Gone, or every delivery failed for FEEDMILL_WEBHOOK_DISABLE_AFTER); null when enabled or switched off by its owner.',
      resolve: (node) => webhookOf(node).disabledReason,
    }),
    failingSince: t.string({
      nullable: true,
      description: 'Since when every delivery has failed (ISO 8601 UTC); null while deliveries succeed.',
      resolve: (node) => webhookOf(node).failingSince,
    }),
    createdAt: t.string({ description: 'ISO 8601 UTC.', resolve: (node) => webhookOf(node).createdAt }),
    updatedAt: t.string({ description: 'When it last changed (ISO 8601 UTC).', resolve: (node) => webhookOf(node).updatedAt }),
    secret: t.string({
      nullable: true,
      description: '`whsec_…`, shown only by createWebhook and rotateWebhookSecret.',
      resolve: (node) => ('secret' in node ? node.secret : null),
    }),
    deliveries: t.field({
      type: DeliveryAttemptPage,
      description: 'The call history, newest first.',
      args: pageArgs,
      resolve: (node, args, { deps, principal }) => webhooks.listDeliveryAttempts(deps, principal, webhookOf(node).id, pageQuery(args)),
    }),
  }),
});

const WebhookPage = pageType('WebhookPage', Webhook, 'webhooks');

builder.queryFields((t) => ({
  webhook: t.field({
    type: Webhook,
    description: "One of your webhooks. Another account's webhook is `webhook_not_found`.",
    args: { id: t.arg.id({ required: true, description: 'The webhook (`wh_…`).' }) },
    resolve: (_root, { id }, { deps, principal }) => webhooks.getWebhook(deps, principal, id),
  }),
  webhooks: t.field({
    type: WebhookPage,
    description: 'Your webhooks, newest first.',
    args: pageArgs,
    resolve: (_root, args, { deps, principal }) => webhooks.listWebhooks(deps, principal, pageQuery(args)),
  }),
}));

const targetDoc = 'The http(s) address that receives the signed events; checked against the address rules when set (docs/security.md).';
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
const webhookInput = (input: WebhookInputShape): webhooks.WebhookInput => ({
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
    resolve: (_root, { input }, { deps, principal }) => webhooks.createWebhook(deps, principal, { ...webhookInput(input), url: input.url }),
  }),
  updateWebhook: t.field({
    type: Webhook,
    description: 'Changes the target, scope, filter or whether it is enabled; fields left out keep their value.',
    args: {
      id: t.arg.id({ required: true, description: 'The webhook to change (`wh_…`).' }),
      input: t.arg({ type: UpdateWebhookInput, required: true, description: 'The new values.' }),
    },
    resolve: (_root, { id, input }, { deps, principal }) => webhooks.updateWebhook(deps, principal, id, webhookInput(input)),
  }),
  deleteWebhook: t.field({
    type: DeletionResult,
    description: 'No more events are sent to it; a second delete is `webhook_not_found`.',
    args: { id: t.arg.id({ required: true, description: 'The webhook to delete.' }) },
    resolve: (_root, { id }, { deps, principal }) => webhooks.deleteWebhook(deps, principal, id),
  }),
  rotateWebhookSecret: t.field({
    type: Webhook,
    description: 'A new secret (in `secret`); the old one keeps signing for 24 hours.',
    args: { id: t.arg.id({ required: true, description: 'The webhook whose secret changes.' }) },
    resolve: (_root, { id }, { deps, principal }) => webhooks.rotateWebhookSecret(deps, principal, id),
  }),
  testWebhook: t.field({
    type: DeliveryAttempt,
    description: 'Sends one signed test event now and returns how the receiver answered.',
    args: { id: t.arg.id({ required: true, description: 'The webhook to test.' }) },
    resolve: (_root, { id }, { deps, principal }) => sendTestEvent(deps, principal, id),
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
