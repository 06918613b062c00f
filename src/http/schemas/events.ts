import { Type } from 'typebox';
import { Limit } from './common.js';
import { WebhookEvent } from './webhook-event.js';
import { eventPageExample } from './examples.js';

const idList = (what: string) =>
  Type.String({
    maxLength: 2_000,
    pattern: '^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$',
    description: `Comma-separated ${what} ids; left out, every feed of the account.`,
  });

export const EventsQuery = Type.Object(
  {
    feeds: Type.Optional(idList('feed')),
    bundles: Type.Optional(idList('bundle')),
    since: Type.Optional(
      Type.String({
        maxLength: 80,
        pattern: '^evt_[A-Za-z0-9_-]{1,64}$',
        'x-expected': "the id of one of this account's events (`evt_…`)",
        description:
          'An event id (`evt_…`) of the last 30 days: the events after it come first. `Last-Event-ID` takes its place on a reconnect.',
      }),
    ),
    limit: Type.Optional(Limit('Events per page, JSON only: integer 1 to 100. @default 50')),
  },
  { additionalProperties: false },
);

/** `GET /v1/events` with `Accept: application/json`: a page of past events, oldest first. */
export const EventPage = Type.Object(
  {
    data: Type.Array(WebhookEvent),
    next_since: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `since` for the next page; null when this page reaches the newest stored event.',
    }),
  },
  { additionalProperties: false, description: 'A page of past events, oldest first.', examples: [eventPageExample] },
);
