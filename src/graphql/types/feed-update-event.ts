import type { ObjectFieldBuilder } from '@pothos/core';
import type { WatchedField } from '../../domain/feed-event.js';
import type {
  ChangedEventItem as ChangedItem,
  EventItem as Item,
  FeedUpdateEvent as Event,
} from '../../webhook-event/feed-update-event.js';
import { builder, type BuilderTypes } from '../builder.js';
import { upperCaseValues } from './enum-values.js';
import { feedUpdates } from '../feed-updates.js';
import { findFeed } from '../../app/find-feed.js';
import { Feed } from './feed.js';
import { Author } from './feed-item.js';

// The event a webhook receiver gets (src/webhook-event), in GraphQL's names: its items carry the
// names of `FeedItem`, and its `feed` is a Feed, read from the store when asked.

const FeedEventType = builder.enumType('FeedEventType', {
  description: 'The kind of an event.',
  values: upperCaseValues({ feed_update: 'A feed has new or changed items.' }),
});

const changedFieldDocs: Record<WatchedField, string> = {
  title: 'The title.',
  url: 'The link.',
  description: 'The description (its HTML).',
  thumbnail: 'The image.',
  authors: 'The authors.',
  date_published: 'The publication date.',
};

const ChangedField = builder.enumType('ChangedField', {
  description: 'A field whose change made an item "changed" (`description` is its HTML).',
  values: upperCaseValues(changedFieldDocs),
});

// `resolve`, not `expose`: Pothos cannot name the keys of a generic parent.
function itemFields<T extends Item>(t: ObjectFieldBuilder<BuilderTypes, T>) {
  return {
    url: t.string({ description: "The item's link.", resolve: (item) => item.url }),
    title: t.string({ description: 'Its title as text; may be empty.', resolve: (item) => item.title }),
    descriptionText: t.string({
      description: 'The description as plain text; empty when the item has none.',
      resolve: (item) => item.description_text,
    }),
    thumbnail: t.string({
      nullable: true,
      description: 'An http(s) address of its image; null when it has none.',
      resolve: (item) => item.thumbnail,
    }),
    datePublished: t.string({ description: 'ISO 8601 UTC with milliseconds.', resolve: (item) => item.date_published }),
    authors: t.field({
      type: [Author],
      description: "Empty when the item names no author; the feed's `customAuthor` when it has one.",
      resolve: (item) => item.authors,
    }),
  };
}

const EventItem = builder.objectRef<Item>('EventItem').implement({ description: 'A new item.', fields: (t) => itemFields(t) });

const ChangedEventItem = builder.objectRef<ChangedItem>('ChangedEventItem').implement({
  description: 'An item that changed since the last event.',
  fields: (t) => ({
    ...itemFields(t),
    changedFields: t.field({ type: [ChangedField], description: 'Which of its fields changed.', resolve: (item) => item.changed_fields }),
  }),
});

const FeedUpdateData = builder.objectRef<Event['data']>('FeedUpdateData').implement({
  description: 'What an event announces: the new items and the changed ones.',
  fields: (t) => ({
    itemsNew: t.field({ type: [EventItem], description: 'Items added since the last event.', resolve: (data) => data.items_new }),
    itemsChanged: t.field({
      type: [ChangedEventItem],
      description: 'Items modified since the last event; may be empty.',
      resolve: (data) => data.items_changed,
    }),
  }),
});

export const FeedUpdateEvent = builder.objectRef<Event>('FeedUpdateEvent').implement({
  description: 'A feed has new or changed items.',
  fields: (t) => ({
    id: t.exposeID('id', { description: '`evt_…`; the same change is always the same id, so duplicates can be dropped.' }),
    type: t.field({ type: FeedEventType, description: 'Always `FEED_UPDATE`.', resolve: (event) => event.type }),
    feed: t.field({
      type: Feed,
      description: 'The feed that changed, as it is now.',
      resolve: (event, _args, { deps, principal }) => findFeed(deps, principal, event.feed.id),
    }),
    data: t.field({ type: FeedUpdateData, description: 'Its new and changed items.', resolve: (event) => event.data }),
  }),
});

builder.subscriptionField('feedUpdate', (t) =>
  t.field({
    type: FeedUpdateEvent,
    description:
      'Events of your feeds as they happen. Without ids, every feed of yours; otherwise the listed feeds and the ' +
      'feeds that are members of the listed bundles at the time of each event. An id that is not yours fails at once. ' +
      'With `since` (an event id of the last 30 days), the stored events after it come first, then live ones, with no gap and no duplicate.',
    args: {
      feedIds: t.arg.idList({ required: false, description: 'Events of these feeds of yours.' }),
      bundleIds: t.arg.idList({
        required: false,
        description: 'Events of the feeds that are members of these bundles of yours at the time of each event.',
      }),
      since: t.arg.id({
        required: false,
        description: 'Replay the events after this one (`evt_…`) before the live ones; the last id you received.',
      }),
    },
    subscribe: (_root, { feedIds, bundleIds, since }, context) =>
      feedUpdates(context, {
        feedIds: feedIds ?? undefined,
        bundleIds: bundleIds ?? undefined,
        ...(since ? { since: String(since) } : {}),
      }),
    resolve: (event) => event,
  }),
);
