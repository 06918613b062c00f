import { createFeed } from '../../app/create-feed.js';
import { deleteFeed } from '../../app/delete-feed.js';
import { getFeed } from '../../app/get-feed.js';
import { listFeeds } from '../../app/list-feeds.js';
import { updateFeed } from '../../app/update-feed.js';
import { findFeed } from '../../app/find-feed.js';
import { feedFieldLimits } from '../../domain/field-limits.js';
import { builder } from '../builder.js';
import { RenderMode } from './render-mode.js';
import { feedShape, feedStatusShape, feedWithItemsShape, type FeedShape } from '../shapes/feed.js';
import { itemShape } from '../shapes/item.js';
import { withShapes } from '../shapes/list.js';
import { DeletionResult } from './deletion-result.js';
import { FeedItem } from './feed-item.js';
import { FeedStatus } from './feed-status.js';
import { FollowedFeed } from './discovery.js';
import { ItemSort } from './item-sort.js';
import { listEnvelope, pageArgs, pageQuery } from './list.js';

/** Spec "Feed"; `settings` is added by feed-settings.ts. */
export const Feed = builder.objectRef<FeedShape>('Feed').implement({
  description: 'A hosted feed built from a source address.',
  fields: (t) => ({
    id: t.exposeID('id', { description: '16 url-safe characters, unguessable: the hosted addresses are built from it.' }),
    title: t.exposeString('title', { description: "The source's title, or the one set with `updateFeed`." }),
    source_url: t.exposeString('source_url', { description: 'The address the feed was created from.' }),
    rss_feed_url: t.exposeString('rss_feed_url', { description: 'The hosted RSS 2.0 document; `.atom` and `.json` sit beside it.' }),
    description: t.exposeString('description', {
      description: "The source's description, or the one set with `updateFeed`; may be empty.",
    }),
    icon: t.exposeString('icon', { description: 'An http(s) address of its image; empty when it has none.' }),
    status: t.field({
      type: FeedStatus,
      description: "The feed's health (the REST `status` object); on an event's feed, as it is now.",
      resolve: async (feed, _args, { deps, principal }) => feed.status ?? feedStatusShape(await findFeed(deps, principal, feed.id)),
    }),
    followed: t.field({
      type: FollowedFeed,
      nullable: true,
      description:
        'Which candidate the feed follows when it was created from a page (see `discover`); null when `source_url` is the feed itself.',
      resolve: async (feed, _args, { deps, principal }) =>
        feed.followed !== undefined ? feed.followed : ((await findFeed(deps, principal, feed.id)).fetch.followed ?? null),
    }),
    items: t.field({
      type: [FeedItem],
      description: "The newest 100 items; without `sort`, the feed's own preference applies.",
      args: {
        sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the feed's own preference." }),
      },
      // Items already loaded by the use case are reused; otherwise (lists, events) they are read now.
      resolve: async (feed, { sort }, { deps, principal }) =>
        feed.items && !sort ? feed.items : (await getFeed(deps, principal, feed.id, sort ?? undefined)).items.map(itemShape),
    }),
  }),
});

const FeedList = listEnvelope('FeedList', Feed, 'feeds');

builder.queryFields((t) => ({
  feed: t.field({
    type: Feed,
    description: "One of your feeds. Another account's feed is `feed_not_found`.",
    args: {
      id: t.arg.id({ required: true, description: 'The feed.' }),
      sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the feed's own preference." }),
    },
    resolve: async (_root, { id, sort }, { deps, principal }) =>
      feedWithItemsShape(await getFeed(deps, principal, id, sort ?? undefined), deps.settings.publicUrl),
  }),
  feeds: t.field({
    type: FeedList,
    description: 'Your feeds, newest first.',
    args: pageArgs,
    resolve: async (_root, args, { deps, principal }) =>
      withShapes(await listFeeds(deps, principal, pageQuery(args)), (feed) => feedShape(feed, deps.settings.publicUrl)),
  }),
}));

const CreateFeedInput = builder.inputType('CreateFeedInput', {
  description: 'What `createFeed` needs: the address of the source.',
  fields: (t) => ({
    url: t.string({ required: true, description: 'A native feed address (RSS, Atom, JSON Feed) or a web page.' }),
    render: t.field({
      type: RenderMode,
      required: false,
      description: 'Whether a web page is rendered in a browser first; AUTO when left out.',
    }),
  }),
});

const UpdateFeedInput = builder.inputType('UpdateFeedInput', {
  description: 'What `updateFeed` changes; a field left out (or null) keeps its value.',
  fields: (t) => ({
    title: t.string({
      required: false,
      description: `The title responses and hosted feeds show; at most ${feedFieldLimits.title} characters.`,
    }),
    description: t.string({
      required: false,
      description: `The description responses and hosted feeds show; at most ${feedFieldLimits.description} characters.`,
    }),
    icon: t.string({ required: false, description: 'An absolute http(s) address of an image; "" for none.' }),
  }),
});

builder.mutationFields((t) => ({
  createFeed: t.field({
    type: Feed,
    description: 'Fetches the address first: a source that cannot be fetched or is not a feed creates nothing.',
    args: { input: t.arg({ type: CreateFeedInput, required: true, description: 'The source.' }) },
    resolve: async (_root, { input }, { deps, principal }) =>
      feedWithItemsShape(
        await createFeed(deps, principal, { url: input.url, ...(input.render ? { render: input.render } : {}) }),
        deps.settings.publicUrl,
      ),
  }),
  updateFeed: t.field({
    type: Feed,
    description: 'Changes title, description or icon; fields left out (or null) keep their value.',
    args: {
      id: t.arg.id({ required: true, description: 'The feed to change.' }),
      input: t.arg({ type: UpdateFeedInput, required: true, description: 'The new values.' }),
    },
    resolve: async (_root, { id, input }, { deps, principal }) =>
      feedShape(
        await updateFeed(deps, principal, id, {
          title: input.title ?? undefined,
          description: input.description ?? undefined,
          icon: input.icon ?? undefined,
        }),
        deps.settings.publicUrl,
      ),
  }),
  deleteFeed: t.field({
    type: DeletionResult,
    description: 'Also removes the feed from every bundle; a second delete is `feed_already_deleted`.',
    args: { id: t.arg.id({ required: true, description: 'The feed to delete.' }) },
    resolve: (_root, { id }, { deps, principal }) => deleteFeed(deps, principal, id),
  }),
}));
