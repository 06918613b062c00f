import { Type } from 'typebox';
import { httpUrl } from './common.js';
import { Filters, FiltersInput } from './item-filter.js';

const webhookFields = {
  id: Type.String({ description: '`wh_` + 16 url-safe characters.' }),
  url: Type.String(),
  scope: Type.Union([Type.Literal('all'), Type.Literal('feeds'), Type.Literal('bundles')]),
  feeds: Type.Array(Type.String()),
  bundles: Type.Array(Type.String()),
  filters: Filters,
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  failing_since: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const Webhook = Type.Object(webhookFields);

/** Creation and rotation: the only responses that carry the signing secret. */
export const WebhookWithSecret = Type.Object({ ...webhookFields, secret: Type.String({ description: '`whsec_…`, shown once.' }) });

const TargetUrl = Type.String({
  ...httpUrl,
  description: 'The receiver; http(s), checked against the same address rules as sources when set and at every send.',
});

/** The scope is all feeds, some feeds, or some bundles: never feeds and bundles at once. */
const feedsAndBundles = {
  required: ['feeds', 'bundles'],
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
  { additionalProperties: false, not: feedsAndBundles },
);

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(TargetUrl),
    feeds: Type.Optional(ids),
    bundles: Type.Optional(ids),
    filters: Type.Optional(FiltersInput),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, not: feedsAndBundles },
);

export const WebhookList = Type.Object({ total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), data: Type.Array(Webhook) });

export const DeliveryAttempt = Type.Object({
  delivery_id: Type.String(),
  event_id: Type.String(),
  attempt: Type.Integer(),
  at: Type.String(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.String({ description: 'At most 4 KiB of the receiver answer.' }),
  outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
});

export const DeliveryList = Type.Object({ total: Type.Integer(), offset: Type.Integer(), limit: Type.Integer(), data: Type.Array(DeliveryAttempt) });

export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 64 }), deliveryId: Type.String({ maxLength: 64 }) });

export const RetryResult = Type.Object({ delivery_id: Type.String(), status: Type.Literal('pending') });
