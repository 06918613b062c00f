import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { createFeed, previewFeed, previewFetchBudget, type CreateFeedInput } from '../../app/create-feed.js';
import { deleteFeed } from '../../app/delete-feed.js';
import type { AppDeps } from '../../app/deps.js';
import { getFeedSettings, updateFeedSettings } from '../../app/feed-settings.js';
import { viewFeed } from '../../app/get-feed.js';
import { listFeeds } from '../../app/list-feeds.js';
import { previewFeedFilters } from '../../app/filter-preview.js';
import { refreshNow } from '../../app/refresh-now.js';
import { updateFeed } from '../../app/update-feed.js';
import { tag } from '../openapi-tags.js';
import { principalOf } from '../plugins/auth.js';
import { toApiFeed, toApiFeedPreview, toApiFeedWithItems } from '../wire/feed.js';
import { toApiFeedSettings } from '../wire/feed-settings.js';
import { toApiList } from '../wire/list.js';
import { DeletionResult, ErrorBody, errorResponses, IdParams, PageQuery, SortQuery } from '../schemas/common.js';
import {
  CreateFeedBody,
  Feed,
  FeedList,
  FeedPreview,
  FeedSettings,
  FeedWithItems,
  FilterPreview,
  FilterPreviewBody,
  RefreshResult,
  UpdateFeedBody,
  UpdateFeedSettingsBody,
} from '../schemas/feed.js';
import { toFilterPreview } from './filter-preview.js';
import { createResponseCache, sendCached } from '../response-cache.js';

const sourceErrors = { 402: ErrorBody };

/** Create-feed rules 1 and 2 (`url` alone, or `keyword` with `region`) are the body schema's `oneOf`. */
const createFeedInput = (body: Static<typeof CreateFeedBody>): CreateFeedInput =>
  'url' in body
    ? {
        url: body.url,
        ...(body.selectors === undefined ? {} : { selectors: body.selectors }),
        ...(body.fetch === undefined ? {} : { fetch: body.fetch }),
        ...(body.render ? { render: body.render } : {}),
      }
    : { keyword: body.keyword, region: body.region };

/** Spec "Endpoints → Feeds", mounted at `/feeds` and `/feed`. Each handler: decode → use case → encode. */
export const feedRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'createFeed',
        summary: 'Create a feed',
        description:
          'From a website or native feed (`url`), or from a keyword search (`keyword` with `region`). The source is fetched at once: the answer holds the first items, and a source that cannot be used is 402 with the reason.',
        tags: [tag.feeds],
        body: CreateFeedBody,
        response: { 200: FeedWithItems, ...errorResponses, ...sourceErrors },
      },
    },
    async (request) =>
      toApiFeedWithItems(await createFeed(deps, principalOf(request), createFeedInput(request.body)), deps.settings.publicUrl),
  );

  app.post(
    '/preview',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'previewFeed',
        summary: 'Preview a feed before creating it',
        description: `Takes the body of \`POST /v1/feeds\` and answers with the feed and items creating it would give, storing nothing. It fetches as a create does (so it needs \`write\` and counts against the same rate limit), at most ${previewFetchBudget} addresses per call; a source that cannot be used is 402 with the reason.`,
        tags: [tag.feeds],
        body: CreateFeedBody,
        response: { 200: FeedPreview, ...errorResponses, ...sourceErrors },
      },
    },
    async (request) => toApiFeedPreview(await previewFeed(deps, createFeedInput(request.body))),
  );

  app.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'listFeeds',
        summary: 'List feeds',
        description: "The account's feeds, a page at a time (`limit`, `offset`), without their items.",
        tags: [tag.feeds],
        querystring: PageQuery,
        response: { 200: FeedList, ...errorResponses },
      },
    },
    async (request) =>
      toApiList(await listFeeds(deps, principalOf(request), request.query), (feed) => toApiFeed(feed, deps.settings.publicUrl)),
  );

  // The body of GET /:id per feed and version: a feed polled by a dashboard is read and serialized
  // once per change, not once per request. The access check and the version read stay per request.
  const feedBodies = createResponseCache();
  app.get(
    '/:id',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getFeed',
        summary: 'Retrieve a feed with its items',
        description:
          "The feed, its health (`status`) and its items, in the order of `sort` (or the feed's own `sort` setting), after its keep/block filters.",
        tags: [tag.feeds],
        params: IdParams,
        querystring: SortQuery,
        response: { 200: FeedWithItems, ...errorResponses },
      },
    },
    async (request, reply) => {
      const view = await viewFeed(deps, principalOf(request), request.params.id, request.query.sort);
      return sendCached(reply, feedBodies, `${request.params.id} ${request.query.sort ?? ''}`, view.version, async () =>
        toApiFeedWithItems(await view.content(), deps.settings.publicUrl),
      );
    },
  );

  app.patch(
    '/:id',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'updateFeed',
        summary: 'Update a feed',
        description: 'Changes the title, description or icon; the fields left out keep their values.',
        tags: [tag.feeds],
        params: IdParams,
        body: UpdateFeedBody,
        response: { 200: Feed, ...errorResponses },
      },
    },
    async (request) => toApiFeed(await updateFeed(deps, principalOf(request), request.params.id, request.body), deps.settings.publicUrl),
  );

  app.delete(
    '/:id',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'deleteFeed',
        summary: 'Delete a feed',
        description: 'Deletes the feed and removes it from every bundle. Deleting it again is 404 `feed_already_deleted`.',
        tags: [tag.feeds],
        params: IdParams,
        response: { 200: DeletionResult, ...errorResponses },
      },
    },
    async (request) => deleteFeed(deps, principalOf(request), request.params.id),
  );

  app.get(
    '/:id/settings',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getFeedSettings',
        summary: "Retrieve a feed's settings",
        description: 'Custom author, default sort, paused, minimum polling interval, keep/block filters and full text.',
        tags: [tag.feeds],
        params: IdParams,
        response: { 200: FeedSettings, ...errorResponses },
      },
    },
    async (request) => toApiFeedSettings(await getFeedSettings(deps, principalOf(request), request.params.id)),
  );

  app.patch(
    '/:id/settings',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'updateFeedSettings',
        summary: "Change a feed's settings",
        description: 'The fields left out keep their values; `filters: null` removes both filters.',
        tags: [tag.feeds],
        params: IdParams,
        body: UpdateFeedSettingsBody,
        response: { 200: FeedSettings, ...errorResponses },
      },
    },
    async (request) => {
      const { min_interval: minIntervalSeconds, full_text: fullText, full_text_rules: fullTextRules, fetch, ...rest } = request.body;
      const patch = {
        ...rest,
        ...(fetch === undefined ? {} : { fetch }),
        ...(minIntervalSeconds === undefined ? {} : { minIntervalSeconds }),
        ...(fullText === undefined ? {} : { fullText }),
        ...(fullTextRules === undefined ? {} : { fullTextRules }),
      };
      return toApiFeedSettings(await updateFeedSettings(deps, principalOf(request), request.params.id, patch));
    },
  );

  app.post(
    '/:id/filters/preview',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'previewFeedFilters',
        summary: 'Dry-run keep/block filters on a feed',
        description:
          'Shows what the given filters would keep and drop among the newest stored items, and which condition decided; nothing is saved.',
        tags: [tag.feeds],
        params: IdParams,
        body: FilterPreviewBody,
        response: { 200: FilterPreview, ...errorResponses },
      },
    },
    async (request) => toFilterPreview(await previewFeedFilters(deps, principalOf(request), request.params.id, request.body.filters)),
  );

  app.post(
    '/:id/refresh',
    {
      config: { scope: 'write' },
      schema: {
        operationId: 'refreshFeed',
        summary: 'Refresh a feed now',
        description: 'Fetches the source at once (at most once per 30 s per feed) and tells what it found, with the feed as it left it.',
        tags: [tag.feeds],
        params: IdParams,
        response: { 200: RefreshResult, ...errorResponses },
      },
    },
    async (request) => {
      const result = await refreshNow(deps, principalOf(request), request.params.id);
      return {
        outcome: result.outcome,
        items_new: result.itemsNew,
        items_changed: result.itemsChanged,
        error: result.error,
        feed: toApiFeed(result.feed, deps.settings.publicUrl),
      };
    },
  );
};
