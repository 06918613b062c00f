import { Type } from 'typebox';
import { httpUrl } from './common.js';
import { Filters, FiltersInput } from './item-filter.js';
import { pageFields } from './feed.js';
import {
  deliveryExample,
  deliveryListExample,
  retryResultExample,
  webhookExample,
  webhookListExample,
  webhookWithSecretExample,
} from './examples.js';

const webhookFields = {
  id: Type.String({ description: '`wh_` + 16 url-safe characters.' }),
  url: Type.String({ description: 'The receiver.' }),
  scope: Type.Union([Type.Literal('all'), Type.Literal('feeds'), Type.Literal('bundles')], {
    description: 'Which feeds it hears: every feed of the account, the `feeds` listed, or the feeds of the `bundles` listed.',
  }),
  feeds: Type.Array(Type.String()),
  bundles: Type.Array(Type.String()),
  filters: Filters,
  enabled: Type.Boolean({ description: 'false: nothing is sent (set by you, by a 410 answer, or after days of failures).' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why feedmill disabled it; null when it did not.' }),
  failing_since: Type.Union([Type.String(), Type.Null()], { description: 'When its deliveries began to fail; null while they succeed.' }),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const Webhook = Type.Object(webhookFields, {
  description: 'A webhook: where feed_update events of its scope are sent, signed.',
  examples: [webhookExample],
});

/** Creation and rotation: the only responses that carry the signing secret. */
export const WebhookWithSecret = Type.Object(
  { ...webhookFields, secret: Type.String({ description: '`whsec_…`, shown once.' }) },
  { description: 'A webhook with its signing secret, which is shown only here.', examples: [webhookWithSecretExample] },
);

const TargetUrl = Type.String({
  ...httpUrl,
  description: 'The receiver; http(s), checked against the same address rules as sources when set and at every send.',
});

/** The scope is all feeds, some feeds, or some bundles: never feeds and bundles at once. */
const feedsAndBundles = {
  required: ['feeds', 'bundles'],
  // Named, though any value will do, so that readers (and Redocly) see the required names are fields.
  properties: { feeds: {}, bundles: {} },
  description: '`feeds` or `bundles`, not both; omit both to receive every feed',
  'x-expected': 'an object with `feeds` or `bundles`, not both (omit both to receive every feed)',
};

const ids = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 500 });

export const CreateWebhookBody = Type.Object(
  {
    url: TargetUrl,
    feeds: Type.Optional(ids),
    bundles: Type.Optional(ids),
    filters: Type.Optional(FiltersInput),
    enabled: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    not: feedsAndBundles,
    description: 'The receiver, and optionally its scope (`feeds` or `bundles`) and a filter on the items.',
    examples: [{ url: webhookExample.url, feeds: webhookExample.feeds, filters: webhookExample.filters }],
  },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(TargetUrl),
    feeds: Type.Optional(ids),
    bundles: Type.Optional(ids),
    filters: Type.Optional(FiltersInput),
    enabled: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: false,
    not: feedsAndBundles,
    description: 'The fields to change; the others keep their values.',
    examples: [{ enabled: false }],
  },
);

export const WebhookList = Type.Object(
  { ...pageFields, data: Type.Array(Webhook) },
  { description: "A page of the account's webhooks.", examples: [webhookListExample] },
);

export const DeliveryAttempt = Type.Object(
  {
    delivery_id: Type.String({ description: '`dlv_` + 24 characters: one per event and webhook, the same on every attempt.' }),
    event_id: Type.String(),
    attempt: Type.Integer({ description: 'The attempt number, from 1.' }),
    at: Type.String({ description: 'When the attempt was made, ISO 8601 UTC.' }),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when none arrived." }),
    latency_ms: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the attempt failed; null when it succeeded.' }),
    response_excerpt: Type.String({ description: 'At most 4 KiB of the receiver answer.' }),
    outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
  },
  { description: 'One attempt to deliver an event to a webhook.', examples: [deliveryExample] },
);

export const DeliveryList = Type.Object(
  { ...pageFields, data: Type.Array(DeliveryAttempt) },
  { description: "A page of a webhook's delivery attempts, newest first.", examples: [deliveryListExample] },
);

export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 64 }), deliveryId: Type.String({ maxLength: 64 }) });

export const RetryResult = Type.Object(
  { delivery_id: Type.String(), status: Type.Literal('pending') },
  { description: 'A delivery queued to be attempted again.', examples: [retryResultExample] },
);
