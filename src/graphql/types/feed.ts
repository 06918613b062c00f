import { PageSelectorsInput, selectorsFromInput } from './page-selectors.js';
import { createFeed } from '../../app/create-feed.js';
import { FetchOptionsInput, fetchOptionsFromInput } from './fetch-options.js';
import { deleteFeed } from '../../app/delete-feed.js';
import { getFeed } from '../../app/get-feed.js';
import { listFeeds } from '../../app/list-feeds.js';
import { updateFeed } from '../../app/update-feed.js';
import { feedFieldLimits } from '../../domain/field-limits.js';
import { builder } from '../builder.js';
import type { Feed as FeedValue } from '../../domain/feed.js';
import { feedHealth } from '../../domain/feed-health.js';
import { hostedFeedUrl } from '../../domain/hosted-urls.js';
import { shownUrl } from '../../domain/safe-url.js';
import type { FeedWithItems } from '../../domain/shown-item.js';
import { RenderMode } from './render-mode.js';
import { DeletionResult } from './deletion-result.js';
import { FeedItemPage } from './feed-item.js';
import { FeedStatus } from './feed-status.js';
import { FollowedFeed } from './discovery.js';
import { ItemSort } from './item-sort.js';
import { pageArgs, pageOf, pageQuery, pageType } from './list.js';

/** A feed, or a feed with the items its use case already read (`feed`, `createFeed`). */
export type FeedNode = FeedValue | FeedWithItems;

/** The feed of a node. A domain Feed has no `feed` field, so the check tells the two apart. */
export const feedOf = (node: FeedNode): FeedValue => ('feed' in node ? node.feed : node);

/** Spec "Feed"; `settings` is added by feed-settings.ts. */
export const Feed = builder.objectRef<FeedNode>('Feed').implement({
  description: 'A hosted feed built from a source address.',
  fields: (t) => ({
    id: t.id({
      description: '16 url-safe characters, unguessable: the hosted addresses are built from it.',
      resolve: (node) => feedOf(node).id,
    }),
    title: t.string({ description: "The source's title, or the one set with `updateFeed`.", resolve: (node) => feedOf(node).title }),
    sourceUrl: t.string({ description: 'The address the feed was created from.', resolve: (node) => feedOf(node).sourceUrl }),
    rssFeedUrl: t.string({
      description: 'The hosted RSS 2.0 document; `.atom` and `.json` sit beside it.',
      resolve: (node, _args, { deps }) => hostedFeedUrl(deps.settings.publicUrl, feedOf(node).id),
    }),
    description: t.string({
      description: "The source's description, or the one set with `updateFeed`; may be empty.",
      resolve: (node) => feedOf(node).description,
    }),
    icon: t.string({
      description: 'An http(s) address of its image; empty when it has none.',
      resolve: (node) => shownUrl(feedOf(node).icon),
    }),
    status: t.field({
      type: FeedStatus,
      description: "The feed's health (the REST `status` object).",
      resolve: (node) => feedHealth(feedOf(node)),
    }),
    followed: t.field({
      type: FollowedFeed,
      nullable: true,
      description:
        'Which candidate the feed follows when it was created from a page (see `discover`); null when `sourceUrl` is the feed itself.',
      resolve: (node) => feedOf(node).fetch.followed ?? null,
    }),
    items: t.field({
      type: FeedItemPage,
      description: "A page of its newest 100 items; without `sort`, the feed's own preference applies.",
      args: {
        ...pageArgs,
        sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the feed's own preference." }),
      },
      // Items already read by the use case are reused; otherwise (lists, events) they are read now.
      resolve: async (node, { sort, ...page }, { deps, principal }) =>
        pageOf('items' in node && !sort ? node.items : (await getFeed(deps, principal, feedOf(node).id, sort ?? undefined)).items, page),
    }),
  }),
});

const FeedPage = pageType('FeedPage', Feed, 'feeds');

builder.queryFields((t) => ({
  feed: t.field({
    type: Feed,
    description: "One of your feeds. Another account's feed is `feed_not_found`.",
    args: {
      id: t.arg.id({ required: true, description: 'The feed.' }),
      sort: t.arg({ type: ItemSort, required: false, description: "The order of the items; without it, the feed's own preference." }),
    },
    resolve: (_root, { id, sort }, { deps, principal }) => getFeed(deps, principal, id, sort ?? undefined),
  }),
  feeds: t.field({
    type: FeedPage,
    description: 'Your feeds, newest first.',
    args: pageArgs,
    resolve: (_root, args, { deps, principal }) => listFeeds(deps, principal, pageQuery(args)),
  }),
}));

const CreateFeedInput = builder.inputType('CreateFeedInput', {
  description: 'What `createFeed` needs: the address of the source, and what else reads it: selectors for a page, fetch options.',
  fields: (t) => ({
    url: t.string({ required: true, description: 'A native feed address (RSS, Atom, JSON Feed) or a web page.' }),
    fetch: t.field({ type: FetchOptionsInput, required: false, description: 'Headers or credentials the source needs.' }),
    selectors: t.field({
      type: PageSelectorsInput,
      required: false,
      description: 'CSS selectors naming the page’s items (docs/selectors.md): when given they decide the items.',
    }),
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
    resolve: (_root, { input }, { deps, principal }) =>
      createFeed(deps, principal, {
        url: input.url,
        ...(input.selectors ? { selectors: selectorsFromInput(input.selectors) } : {}),
        ...(input.fetch ? { fetch: fetchOptionsFromInput(input.fetch) } : {}),
        ...(input.render ? { render: input.render } : {}),
      }),
  }),
  updateFeed: t.field({
    type: Feed,
    description: 'Changes title, description or icon; fields left out (or null) keep their value.',
    args: {
      id: t.arg.id({ required: true, description: 'The feed to change.' }),
      input: t.arg({ type: UpdateFeedInput, required: true, description: 'The new values.' }),
    },
    resolve: (_root, { id, input }, { deps, principal }) =>
      updateFeed(deps, principal, id, {
        title: input.title ?? undefined,
        description: input.description ?? undefined,
        icon: input.icon ?? undefined,
      }),
  }),
  deleteFeed: t.field({
    type: DeletionResult,
    description: 'Also removes the feed from every bundle; a second delete is `feed_already_deleted`.',
    args: { id: t.arg.id({ required: true, description: 'The feed to delete.' }) },
    resolve: (_root, { id }, { deps, principal }) => deleteFeed(deps, principal, id),
  }),
}));
