import { isFeedmillError } from '../domain/errors.js';
import type { FeedCandidate } from '../domain/platforms/feed-candidate.js';
import { fillTemplate, type PendingPlatformFeed } from '../domain/platforms/platform-match.js';
import { isNodeinfoIndex, youtubeChannelIdOf } from '../domain/platforms/platform-pages.js';
import type { PlatformResolver } from '../domain/platforms/platform-rule.js';
import type { AppDeps } from './deps.js';

/** What a resolver may read: the page's text when it was fetched as HTML, and the fetcher. */
export interface ResolverContext {
  deps: Pick<AppDeps, 'fetcher'>;
  pageHtml: string | undefined;
}

type Resolve = (feed: PendingPlatformFeed, context: ResolverContext) => Promise<Record<string, string> | undefined>;

/** NodeInfo's discovery document lives at the same path on every fediverse server. */
const nodeinfoPath = '/.well-known/nodeinfo';

/**
 * The built-in resolvers, by the name a rule gives: each returns the variables it adds to the
 * template, or undefined when the page (or host) is not what the rule's shape suggested.
 */
const resolvers: Record<PlatformResolver, Resolve> = {
  'youtube-handle': async (_feed, { pageHtml }) => {
    const channelId = pageHtml === undefined ? undefined : youtubeChannelIdOf(pageHtml);
    return channelId === undefined ? undefined : { channel_id: channelId };
  },
  activitypub: async (feed, { deps }) => {
    try {
      const answer = await deps.fetcher.fetch({ url: `${feed.variables.origin ?? ''}${nodeinfoPath}` });
      return answer.status === 200 && isNodeinfoIndex(Buffer.from(answer.body).toString('utf8')) ? {} : undefined;
    } catch (error) {
      if (isFeedmillError(error)) return undefined;
      throw error;
    }
  },
};

/** A rule's feed that needed a resolver, as a candidate; undefined when the resolver said no. */
export async function resolvePlatformFeed(feed: PendingPlatformFeed, context: ResolverContext): Promise<FeedCandidate | undefined> {
  const added = await resolvers[feed.resolver](feed, context);
  if (added === undefined) return undefined;
  return {
    url: fillTemplate(feed.template.url, { ...feed.variables, ...added }),
    title: null,
    format: feed.template.format ?? 'rss',
    source: 'rule',
    platform: feed.platform,
    confirmed: false,
    ...(feed.template.extractor ? { extractor: feed.template.extractor } : {}),
  };
}
