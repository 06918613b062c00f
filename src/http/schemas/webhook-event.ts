import { Type } from 'typebox';
import { watchedFields } from '../../domain/feed-event.js';
import { webhookEventExample } from './examples.js';

const Author = Type.Object({ name: Type.String() }, { additionalProperties: false });

const itemFields = {
  url: Type.String(),
  title: Type.String(),
  description_text: Type.String(),
  thumbnail: Type.Union([Type.String(), Type.Null()]),
  date_published: Type.String({ description: 'ISO 8601 UTC with milliseconds.' }),
  authors: Type.Array(Author),
};

/**
 * Spec "Webhook event object", the body of every webhook delivery and the payload of the GraphQL
 * `feedUpdate` subscription. Published as schema/json/webhook-event.json (`npm run schema`).
 */
export const WebhookEvent = Type.Object(
  {
    id: Type.String({ pattern: '^evt_[A-Za-z0-9_-]{24}$', description: 'Derived from the change: the same on every retry.' }),
    type: Type.Literal('feed_update'),
    feed: Type.Object(
      {
        id: Type.String(),
        title: Type.String(),
        source_url: Type.String(),
        rss_feed_url: Type.String(),
        description: Type.String(),
        icon: Type.String(),
      },
      { additionalProperties: false },
    ),
    data: Type.Object(
      {
        items_new: Type.Array(Type.Object(itemFields, { additionalProperties: false })),
        items_changed: Type.Array(
          Type.Object(
            { ...itemFields, changed_fields: Type.Array(Type.Union(watchedFields.map((field) => Type.Literal(field)))) },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://feedmill.dev/schema/webhook-event.json',
    title: 'feedmill webhook event (feed_update)',
    description:
      'What changed in one feed: its new items and its changed ones. The body of a webhook delivery and of an event-stream frame.',
    additionalProperties: false,
    examples: [webhookEventExample],
  },
);
