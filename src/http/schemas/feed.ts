import { Type, type Static } from 'typebox';
import { maxMinIntervalSeconds } from '../../app/feed-settings.js';
import { feedFieldLimits } from '../../domain/field-limits.js';
import { allowedHeaderNames, fetchOptionLimits as limits, fetchOptionPatterns as patterns } from '../../domain/fetch-options.js';
import { httpUrl, httpUrlOrEmpty } from './common.js';
import { FollowedCandidate } from './discover.js';
import { KeepBlock, KeepBlockInput } from './item-filter.js';
import { PageSelectors } from './page-selectors.js';
import {
  authorExample,
  feedExample,
  feedItemExample,
  feedListExample,
  feedPreviewExample,
  feedSettingsExample,
  fetchOptionsExample,
  feedStatusExample,
  feedWithItemsExample,
  filterPreviewExample,
  filtersExample,
  refreshResultExample,
} from './examples.js';

/** The use cases' limits, published in the schema so the contract states them. */
export const maxLengths = feedFieldLimits;

export const Author = Type.Object(
  { name: Type.String() },
  { description: "An item's author; a feed's `customAuthor` replaces them all.", examples: [authorExample] },
);

/** Spec "Feed item". */
export const FeedItem = Type.Object(
  {
    url: Type.String({ description: "The item's address." }),
    title: Type.String(),
    description_text: Type.String({ description: 'The content as plain text.' }),
    description_html: Type.String({ description: 'The content as sanitised HTML.' }),
    thumbnail: Type.Union([Type.String(), Type.Null()], { description: 'An image address, or null.' }),
    authors: Type.Array(Author),
    date_published: Type.String({ description: 'ISO 8601 UTC with milliseconds.' }),
    summary_text: Type.String({ description: "The feed's own description of the item (its teaser), as plain text." }),
    summary_html: Type.String({ description: "The feed's own description of the item (its teaser), as sanitised HTML." }),
    full_text_status: Type.Union([Type.Literal('pending'), Type.Literal('ok'), Type.Literal('failed'), Type.Literal('skipped')], {
      description:
        "Full text (docs/full-text.md): `ok`: `description_*` is the article fetched from `url`; `pending`: it is being fetched (the item shows its teaser and is not yet announced); `failed`: it could not be had (`full_text_error` says why; the teaser is shown); `skipped`: the feed's `full_text` is off, or the item is older than the fill or past the per-refresh cap.",
    }),
    full_text_error: Type.Union(
      [
        Type.Object({
          code: Type.String({
            description:
              "The fetcher's code (`upstream_status`, `upstream_timeout`, `address_not_allowed`, `body_too_large`, …), `unsupported_content_type`, `no_article_found`, or `timeout` (not in within FEEDMILL_FULL_TEXT_MAX_WAIT).",
          }),
          message: Type.String({ description: 'What went wrong, for humans.' }),
        }),
        Type.Null(),
      ],
      { description: "Why the article could not be had (the last try's failure while `pending`); null otherwise." },
    ),
  },
  { description: 'One article of a feed or bundle.', examples: [feedItemExample] },
);

const timestamp = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: `${description} ISO 8601 UTC; null when there is none yet.`,
  });

/** DESIGN.md: a feed's health, additive to the spec's fields. */
export const FeedStatus = Type.Object(
  {
    state: Type.Union([Type.Literal('active'), Type.Literal('paused'), Type.Literal('failing'), Type.Literal('disabled')], {
      description:
        '`active`: fetched on schedule, the last fetch succeeded. `failing`: the last fetch failed (`consecutive_errors` > 0); it is retried with exponential backoff up to FEEDMILL_POLL_MAX_INTERVAL. `paused`: its owner set `paused: true` in its settings; it is not polled. `disabled`: every fetch failed for FEEDMILL_FEED_DISABLE_AFTER seconds (7 days by default); it is not polled until resumed with `paused: false` or a refresh on demand that succeeds.',
    }),
    last_fetched_at: timestamp('When the source was last fetched, successfully or not.'),
    last_success_at: timestamp('When a fetch last succeeded.'),
    next_fetch_at: timestamp('When the next fetch is planned.'),
    last_outcome: Type.Union([Type.String(), Type.Null()], {
      description:
        'What the last fetch found: `changed` (new or changed items), `unchanged` (the source answered, nothing new), `not_modified` (the source answered 304), or the error code of the failure (`upstream_status`, `upstream_timeout`, `not_a_feed`, …).',
    }),
    consecutive_errors: Type.Integer({ minimum: 0, description: 'Failed fetches in a row; 0 after a success.' }),
    last_error: Type.Union(
      [
        Type.Object({
          code: Type.String({ description: 'The error code.' }),
          message: Type.String({ description: 'What went wrong, for humans.' }),
        }),
        Type.Null(),
      ],
      {
        description: 'Why the last fetch failed; null when it succeeded.',
      },
    ),
    disabled_at: timestamp('When the feed was disabled; null unless `state` is `disabled`.'),
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the feed was disabled (how long it has failed, and the last error); null unless `state` is `disabled`.',
    }),
    full_text_failures: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          "Full text on: how many of the items shown have `full_text_status: failed`. Only on responses that carry the feed's items. Article failures never change `state`: the feed itself is fine.",
      }),
    ),
  },
  { description: "The feed's health: how its last fetches went and when the next one is due.", examples: [feedStatusExample] },
);

const feedFields = {
  id: Type.String({ description: '16 url-safe characters.' }),
  title: Type.String(),
  source_url: Type.String({
    description: 'The address the feed was created from; for a keyword feed, one carrying `keyword`, `region` and `lang`.',
  }),
  rss_feed_url: Type.String({ description: 'The hosted feed (RSS 2.0); `.atom`, `.json` and `.csv` beside it.' }),
  description: Type.String(),
  icon: Type.String({ description: 'An image address, or "".' }),
  status: FeedStatus,
  followed: Type.Union([FollowedCandidate, Type.Null()], {
    description:
      'Which candidate the feed follows when `source_url` was a page (GET /v1/discover lists them); null when `source_url` is the feed itself.',
  }),
};

/** Spec "Feed" without items: list entries and the update response. */
export const Feed = Type.Object(feedFields, { description: 'A feed, without its items.', examples: [feedExample] });

/** Spec "Feed" with items: create and retrieve responses. */
export const FeedWithItems = Type.Object(
  { ...feedFields, items: Type.Array(FeedItem, { description: 'In the order of `sort`, after the keep/block filters.' }) },
  { description: 'A feed with its items.', examples: [feedWithItemsExample] },
);

const asciiText = 'printable ASCII without leading or trailing spaces';
const headerNames = `${allowedHeaderNames.join(', ')} or X-… (letters, digits, hyphens), in any letter case, at most ${limits.headerNameChars} characters`;

/**
 * docs/fetch-options.md. Two rules no JSON Schema states are the route's alone (400, allowed for
 * these operations in scripts/schemathesis.toml): a name given twice in different letter cases,
 * and `Authorization` beside `basic_auth`; and so is the total size of the headers.
 */
export const FetchOptionsInput = Type.Object(
  {
    user_agent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: limits.userAgentChars,
        pattern: patterns.headerText,
        'x-expected': `${asciiText}, at most ${limits.userAgentChars} characters`,
        description: `The \`User-Agent\` sent to the source instead of feedmill's; ${asciiText}.`,
      }),
    ),
    headers: Type.Optional(
      Type.Unsafe<Record<string, string>>({
        type: 'object',
        additionalProperties: Type.String({
          minLength: 1,
          maxLength: limits.headerValueChars,
          pattern: patterns.headerText,
          'x-expected': `${asciiText}, at most ${limits.headerValueChars} characters`,
          'x-secret': true,
        }),
        propertyNames: {
          maxLength: limits.headerNameChars,
          pattern: patterns.headerName,
          'x-expected': `header names among ${headerNames}`,
        },
        maxProperties: limits.headers,
        description: `Request headers, name to value: names among ${headerNames}, each once; values ${asciiText} of at most ${limits.headerValueChars} characters, ${limits.headersTotalChars} for all names and values together. Never shown again: the settings list their names only.`,
      }),
    ),
    basic_auth: Type.Optional(
      Type.Object(
        {
          username: Type.String({
            minLength: 1,
            maxLength: limits.usernameChars,
            pattern: patterns.username,
            'x-expected': `text without control characters or \`:\`, at most ${limits.usernameChars} characters`,
            'x-secret': true,
          }),
          password: Type.String({
            maxLength: limits.passwordChars,
            pattern: patterns.password,
            'x-expected': `text without control characters, at most ${limits.passwordChars} characters`,
            'x-secret': true,
          }),
        },
        {
          additionalProperties: false,
          description: 'HTTP Basic credentials (RFC 7617), sent as `Authorization`; not together with an `Authorization` header.',
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      "What the source needs beyond its address, sent on every request to the source's own origin and nowhere else (not after a redirect to another origin). Stored encrypted; read back only as `FetchOptionsSummary`.",
    examples: [fetchOptionsExample],
  },
);

/** Fetch options as they may be shown: no header value, no credential. */
export const FetchOptionsSummary = Type.Union(
  [
    Type.Object({
      user_agent: Type.Union([Type.String(), Type.Null()], { description: "The source's own `User-Agent`; null: feedmill's." }),
      header_names: Type.Array(Type.String(), { description: 'The names of the headers sent; their values are never shown.' }),
      basic_auth_set: Type.Boolean({ description: 'Whether HTTP Basic credentials are sent; they are never shown.' }),
    }),
    Type.Null(),
  ],
  { description: 'What the source is sent beyond its address (docs/fetch-options.md), without any secret; null: nothing.' },
);
const Render = Type.Union([Type.Literal('auto'), Type.Literal('always'), Type.Literal('never')], {
  description:
    'Whether a web page is rendered in a browser before its items are read (docs/rendering.md): `auto` (the default) when the page as served lists no items and the service has a browser; `always`; `never`.',
});

const CreateFromUrl = Type.Object(
  {
    url: Type.String({ ...httpUrl, maxLength: maxLengths.url, description: 'A website or native feed address.' }),
    fetch: Type.Optional(FetchOptionsInput),
    selectors: Type.Optional(PageSelectors),
    render: Type.Optional(Render),
  },
  { additionalProperties: false },
);

const CreateFromKeyword = Type.Object(
  {
    // At least one character that is not white space: the keyword is trimmed before use.
    keyword: Type.String({ maxLength: 500, pattern: '\\S', 'x-expected': 'a keyword with a character other than white space' }),
    region: Type.String({
      maxLength: 10,
      pattern: '^[A-Za-z]{2}:[A-Za-z]{2}$',
      'x-expected': 'COUNTRY:language (ISO 3166-1 and 639-1, e.g. `US:en`)',
      description: '`CC:ll`: ISO 3166-1 country and ISO 639-1 language, e.g. `US:en`.',
    }),
  },
  { additionalProperties: false },
);

/** Create-feed rules 1 and 2: `url` alone, or `keyword` with `region`; never both. */
export const CreateFeedBody = Type.Unsafe<Static<typeof CreateFromUrl> | Static<typeof CreateFromKeyword>>({
  oneOf: [CreateFromUrl, CreateFromKeyword],
  description: 'either `url` (optionally with `selectors`), or `keyword` with `region`',
  'x-expected': 'an object with either `url`, or `keyword` with `region`',
  examples: [
    { url: 'https://blog.example.com/' },
    { keyword: 'analytical engine', region: 'GB:en' },
    { url: 'https://harbour.example.com/notices', selectors: { item: '.notice', title: 'h3', link: '@data-href' } },
  ],
});

/** POST /v1/feeds/preview: the feed a create would make, stored nowhere. */
export const FeedPreview = Type.Object(
  {
    title: Type.String(),
    description: Type.String(),
    icon: Type.String({ description: 'An image address, or "".' }),
    link: Type.String({ description: 'The site the feed describes, or "".' }),
    source_url: feedFields.source_url,
    followed: feedFields.followed,
    items: Type.Array(FeedItem, { description: 'Every item the first run would store, in the source’s order.' }),
  },
  {
    description: 'The feed and items creating it would give; nothing is stored, so there is no `id` or hosted address.',
    examples: [feedPreviewExample],
  },
);

export const UpdateFeedBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: maxLengths.title })),
    description: Type.Optional(Type.String({ maxLength: maxLengths.description })),
    icon: Type.Optional(Type.String({ ...httpUrlOrEmpty, description: 'An absolute http(s) URL, or "" for none.' })),
  },
  {
    additionalProperties: false,
    description: 'The fields to change; the others keep their values.',
    examples: [{ title: 'Computing history', icon: '' }],
  },
);

/** The envelope of every list: a page of `data` and where it sits. */
export const pageFields = {
  total: Type.Integer({ description: 'How many there are in all.' }),
  offset: Type.Integer({ description: 'How many were skipped.' }),
  limit: Type.Integer({ description: 'The most this page could hold.' }),
};

export const FeedList = Type.Object(
  { ...pageFields, data: Type.Array(Feed) },
  { description: "A page of the account's feeds.", examples: [feedListExample] },
);

const Sort = Type.Union([Type.Literal('last_added'), Type.Literal('date')], {
  description: 'Default order of items when a request gives no `sort`.',
});

const Paused = Type.Boolean({
  description:
    '`true` stops polling (the feed shows `state: paused`); `false` resumes it, and also resumes a `disabled` feed, fetching it at once.',
});

const MinInterval = Type.Union([Type.Integer({ minimum: 1, maximum: maxMinIntervalSeconds }), Type.Null()], {
  description:
    'Shortest time between two scheduled fetches of this feed, in seconds; never below FEEDMILL_POLL_MIN_INTERVAL (a lower value is refused with 400). null: the global floor.',
});

const FullText = Type.Boolean({
  description:
    "Full text (docs/full-text.md): `true` fetches the page behind each new item's `url` and shows its article as the item's description (the teaser stays as `summary_*`); turning it on fills in the latest 20 items, turning it off shows the teasers again. Neither announces anything.",
});

const selectorText = 'A CSS selector.';
const FullTextRules = Type.Object(
  {
    content: Type.Optional(Type.String({ description: `${selectorText} The element holding the article.` })),
    remove: Type.Optional(
      Type.Array(Type.String(), { description: `${selectorText} each; parts of the article to drop (share buttons, related links).` }),
    ),
  },
  { additionalProperties: false, description: "Hints for the feed's article pages; they win over feedmill's own rules for the site." },
);

/** Spec "Feed settings", plus `sort`, `paused`, `min_interval`, `filters` and full text. */
export const FeedSettings = Type.Object(
  {
    customAuthor: Type.Union([Type.String(), Type.Null()], {
      description: "Shown as every item's only author; null shows the source's authors.",
    }),
    sort: Sort,
    paused: Paused,
    min_interval: MinInterval,
    filters: KeepBlock,
    full_text: FullText,
    full_text_rules: Type.Union([FullTextRules, Type.Null()], { description: 'null: the extractor finds the article by itself.' }),
    fetch: FetchOptionsSummary,
    selectors: Type.Union([PageSelectors, Type.Null()], {
      description:
        'The CSS selectors that read the page at `source_url` (docs/selectors.md); null: the feed is read as discovery found it.',
    }),
    render: Render,
  },
  { description: "A feed's settings.", examples: [feedSettingsExample] },
);

export const UpdateFeedSettingsBody = Type.Object(
  {
    customAuthor: Type.Optional(
      Type.Union([Type.String({ maxLength: maxLengths.customAuthor }), Type.Null()], {
        description: 'null resets it to the source authors.',
      }),
    ),
    sort: Type.Optional(Sort),
    paused: Type.Optional(Paused),
    min_interval: Type.Optional(MinInterval),
    filters: Type.Optional(KeepBlockInput),
    full_text: Type.Optional(FullText),
    full_text_rules: Type.Optional(
      Type.Union([FullTextRules, Type.Null()], { description: 'null removes them. Checked as a whole: a bad selector is 400 naming it.' }),
    ),
    fetch: Type.Optional(
      Type.Union([FetchOptionsInput, Type.Null()], {
        description: 'Replaces the stored fetch options whole (send every header and credential again); null removes them.',
      }),
    ),
    selectors: Type.Optional(
      Type.Union([PageSelectors, Type.Null()], {
        description:
          'Setting or changing them reads the page at `source_url` with them at once (402 `no_items_found` when they name nothing; nothing changes then); null removes them and finds the source again as a create would. Not on a keyword feed.',
      }),
    ),
    render: Type.Optional(Render),
  },
  {
    additionalProperties: false,
    description: 'The settings to change; the others keep their values.',
    examples: [{ sort: 'date', min_interval: 900, filters: filtersExample }],
  },
);

/** POST /v1/feeds/:id/filters/preview and /v1/bundles/:id/filters/preview. */
export const FilterPreviewBody = Type.Object(
  { filters: KeepBlockInput },
  {
    additionalProperties: false,
    description: 'The candidate keep/block filters; nothing is saved.',
    examples: [{ filters: filtersExample }],
  },
);

const Condition = Type.Object({ field: Type.String(), op: Type.String(), value: Type.String() });

/** One recent item and what the candidate filters would do with it. */
const PreviewedItem = Type.Object({
  feed_id: Type.String({ description: 'The feed the item comes from.' }),
  item: FeedItem,
  kept: Type.Boolean({ description: 'Whether the item would be shown.' }),
  decided_by: Type.Union(
    [
      Type.Object({
        rule: Type.Union([Type.Literal('keep'), Type.Literal('block')], { description: 'The filter that decided.' }),
        path: Type.String({ description: 'Where the condition sits in the request, e.g. `block.any[1]`.' }),
        condition: Condition,
      }),
      Type.Null(),
    ],
    { description: 'The condition that decided: the first that failed an `all` or held in an `any`; null when no filter is given.' },
  ),
});

export const FilterPreview = Type.Object(
  {
    kept: Type.Integer({ minimum: 0, description: 'How many of the items would be shown.' }),
    dropped: Type.Integer({ minimum: 0, description: 'How many would be dropped.' }),
    data: Type.Array(PreviewedItem, { description: 'The newest stored items (at most 50), as stored, newest first.' }),
  },
  { description: 'A dry run of keep/block filters over recent items.', examples: [filterPreviewExample] },
);

/** POST /v1/feeds/:id/refresh. */
export const RefreshResult = Type.Object(
  {
    outcome: Type.String({
      description:
        '`changed` (new or changed items stored), `unchanged`, `not_modified` (the source answered 304), `failed` (see `error`), or `superseded` (a scheduled refresh of the feed finished first; its result stands).',
    }),
    items_new: Type.Integer({ minimum: 0, description: 'Items this fetch stored for the first time.' }),
    items_changed: Type.Integer({ minimum: 0, description: 'Stored items whose content changed.' }),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()], {
      description: 'Why the fetch failed; null unless `outcome` is `failed`.',
    }),
    feed: Feed,
  },
  { description: 'What a refresh on demand found, and the feed (with its status) as it left it.', examples: [refreshResultExample] },
);
