import { discoverFeeds, type Discovery as DiscoveryResult } from '../../app/discover-feeds.js';
import { parseDiscoverUrl } from '../../app/discover-url.js';
import type { CandidateSource, FeedCandidate as Candidate, FollowedCandidate } from '../../domain/platforms/feed-candidate.js';
import type { FeedFormat as Format } from '../../domain/platforms/platform-rule.js';
import { builder } from '../builder.js';
import { upperCaseValues } from './enum-values.js';
import { FeedError } from './feed-status.js';

const formats: Record<Format, string> = {
  rss: 'RSS 2.0 (or an earlier RSS, or CDF).',
  atom: 'Atom 1.0.',
  rdf: 'RSS 1.0 (RDF).',
  json_feed: 'JSON Feed.',
  page: 'A web page whose items are read from it.',
};
const sources: Record<CandidateSource, string> = {
  rule: "A platform rule: the platform's own feed of this kind of page, known without a fetch.",
  advertised: 'The page links it: `<link rel="alternate">`, or an `<a>` to a feed.',
  'well-known': 'A common feed path of the site that answered with a feed.',
  page: 'The page itself, its items extracted; always last.',
  direct: 'The address given is itself a feed.',
};

const FeedFormat = builder.enumType('FeedFormat', { description: 'What a candidate is.', values: upperCaseValues(formats) });
const FeedCandidateSource = builder.enumType('FeedCandidateSource', {
  description: 'How a candidate was found.',
  values: upperCaseValues(sources),
});

export const FollowedFeed = builder.objectRef<FollowedCandidate>('FollowedFeed').implement({
  description: 'The candidate a feed follows when it was created from a page.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The address the feed reads.' }),
    source: t.field({ type: FeedCandidateSource, description: 'How it was found.', resolve: (followed) => followed.source }),
    platform: t.exposeString('platform', { nullable: true, description: 'The platform of the rule, for `RULE`.' }),
  }),
});

const FeedCandidate = builder.objectRef<Candidate>('FeedCandidate').implement({
  description: 'A feed a pasted address could become.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The feed (or page) address.' }),
    title: t.exposeString('title', {
      nullable: true,
      description: "The document's title once fetched, else the title the page gave its link; null when neither is known.",
    }),
    format: t.field({ type: FeedFormat, description: 'Once confirmed, the document’s own.', resolve: (candidate) => candidate.format }),
    source: t.field({ type: FeedCandidateSource, description: 'How it was found.', resolve: (candidate) => candidate.source }),
    platform: t.exposeString('platform', { nullable: true, description: 'The platform of the rule, for `RULE`.' }),
    confirmed: t.exposeBoolean('confirmed', { description: 'Fetched and read within the time budget (FEEDMILL_DISCOVER_TIMEOUT).' }),
  }),
});

const Discovery = builder.objectRef<DiscoveryResult>('Discovery').implement({
  description: 'The feeds a pasted address could become; `createFeed` with the same address follows the first that has items.',
  fields: (t) => ({
    candidates: t.field({
      type: [FeedCandidate],
      description: 'Best first: `DIRECT`, `RULE`, `ADVERTISED`, `WELL_KNOWN`, then `PAGE`.',
      resolve: (discovery) => discovery.candidates,
    }),
    pageError: t.field({
      type: FeedError,
      nullable: true,
      description: 'Why the address itself gave no feed and no items; null when it did.',
      resolve: (discovery) => discovery.pageError && { code: discovery.pageError.code, message: discovery.pageError.message },
    }),
  }),
});

builder.queryFields((t) => ({
  discover: t.field({
    type: Discovery,
    description:
      "The feeds of a page (the REST `GET /v1/discover`): the platform's own, the advertised ones, well-known paths, the page's items.",
    args: { url: t.arg.string({ required: true, description: 'The page (or feed) a person pasted.' }) },
    resolve: async (_root, { url }, { deps }) => discoverFeeds(deps, parseDiscoverUrl(url)),
  }),
}));
