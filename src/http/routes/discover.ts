import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app/deps.js';
import { discoverFeeds } from '../../app/discover-feeds.js';
import { parseDiscoverUrl } from '../../app/discover-url.js';
import { tag } from '../openapi-tags.js';
import { errorResponses } from '../schemas/common.js';
import { DiscoverQuery, Discovery } from '../schemas/discover.js';
import { toApiDiscovery } from '../wire/discover.js';

/** DESIGN.md "Websites, articles and platforms": GET /v1/discover, mounted at `/discover`. */
export const discoverRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'discoverFeeds',
        summary: 'Find the feeds of a page',
        description:
          "The feeds a pasted address could become, best first: the platform's own feeds (YouTube, Reddit, GitHub, Mastodon… by rule, listed even when the page cannot be reached), the feeds the page advertises, feeds at well-known paths, then the page's own items. Up to 10 are fetched to confirm their title and format within FEEDMILL_DISCOVER_TIMEOUT. Nothing is stored.",
        tags: [tag.feeds],
        querystring: DiscoverQuery,
        response: { 200: Discovery, ...errorResponses },
      },
    },
    async (request) => toApiDiscovery(await discoverFeeds(deps, parseDiscoverUrl(request.query.url))),
  );
};
