import { Type } from 'typebox';
import { candidateSources } from '../../domain/platforms/feed-candidate.js';
import { feedFormats } from '../../domain/platforms/platform-rule.js';
import { httpUrl } from './common.js';
import { discoveryExample, followedExample } from './examples.js';

/** One of the domain's own list of values: the schema states them, the list stays in one place. */
const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

const formatField = literals(
  feedFormats,
  '`rss`, `atom`, `rdf`, `json_feed` (a native feed), or `page` (items read from a web page). Before confirmation, what the rule or the link said.',
);

/** DESIGN.md: which candidate a feed created from a page follows; additive on feed responses. */
export const FollowedCandidate = Type.Object(
  {
    url: Type.String({ description: 'The address the feed reads.' }),
    source: literals(
      candidateSources.filter((source) => source !== 'direct'),
      'How it was found: `rule` (a platform rule), `advertised` (the page links it), `well-known` (a common feed path of the site), `page` (the page itself, its items extracted).',
    ),
    platform: Type.Optional(Type.String({ description: 'The platform of the rule, for `rule`.' })),
  },
  { description: 'The candidate the feed follows, when `source_url` was a page rather than the feed itself.', examples: [followedExample] },
);

export const FeedCandidate = Type.Object(
  {
    url: Type.String({ description: 'The feed (or page) address.' }),
    title: Type.Union([Type.String(), Type.Null()], {
      description: "The document's title once fetched, else the title the page gave its link; null when neither is known.",
    }),
    format: formatField,
    source: literals(
      candidateSources,
      '`rule` (a platform rule: listed without a fetch), `advertised` (`<link rel="alternate">` or an `<a>` to a feed on the page), `well-known` (a common feed path that answered with a feed), `page` (the items of the page itself, always last), `direct` (the address given is itself a feed).',
    ),
    platform: Type.Optional(Type.String({ description: 'The platform of the rule, for `rule`.' })),
    confirmed: Type.Boolean({
      description: "Fetched and read within the time budget (FEEDMILL_DISCOVER_TIMEOUT); `title` and `format` are then the document's own.",
    }),
  },
  { description: 'A feed the address could become.' },
);

/** The `url` of a discovery: a bad one is `validation_failed`, like any query parameter. */
const { 'x-error-code': _urlCode, ...pageUrl } = httpUrl;

export const DiscoverQuery = Type.Object(
  { url: Type.String({ ...pageUrl, description: 'The page (or feed) a person pasted: a YouTube channel, a subreddit, a blog…' }) },
  { additionalProperties: false },
);

export const Discovery = Type.Object(
  {
    candidates: Type.Array(FeedCandidate, { description: 'Best first: `direct`, `rule`, `advertised`, `well-known`, then `page`.' }),
    page_error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], {
      description: 'Why the address itself gave no feed and no items (unreachable, not a page of articles…); null when it did.',
    }),
  },
  {
    description: 'The feeds a pasted address could become; `POST /v1/feeds` with the same `url` follows the first that has items.',
    examples: [discoveryExample],
  },
);
