import { getFeedSettings, updateFeedSettings } from '../../app/feed-settings.js';
import type { FeedSettings as Settings } from '../../domain/feed.js';
import type { FullTextRules as Rules } from '../../domain/full-text-rules.js';
import { feedFieldLimits } from '../../domain/field-limits.js';
import { builder } from '../builder.js';
import { FetchOptions, FetchOptionsInput, fetchOptionsFromInput } from './fetch-options.js';
import { Feed, feedOf } from './feed.js';
import { PageSelectors, PageSelectorsInput, selectorsFromInput } from './page-selectors.js';
import { ItemSort } from './item-sort.js';
import { RenderMode } from './render-mode.js';
import { KeepBlock, KeepBlockInput, keepBlockFromInput } from './item-filter.js';

const FullTextRules = builder.objectRef<Rules>('FullTextRules').implement({
  description: "Where a feed's article pages keep their article; they win over feedmill's own rules for the site.",
  fields: (t) => ({
    content: t.string({
      nullable: true,
      description: 'The CSS selector of the element holding the article.',
      resolve: (rules) => rules.content ?? null,
    }),
    remove: t.stringList({ description: 'CSS selectors of parts to drop first.', resolve: (rules) => rules.remove ?? [] }),
  }),
});

const FullTextRulesInput = builder.inputType('FullTextRulesInput', {
  description: "Where a feed's article pages keep their article.",
  fields: (t) => ({
    content: t.string({ required: false, description: 'The CSS selector of the element holding the article.' }),
    remove: t.stringList({ required: false, description: 'CSS selectors of parts to drop first.' }),
  }),
});

/** Spec "Feed settings", plus `sort` (DESIGN.md: the dashboard sort preference), `paused` and `minInterval`. */
export const FeedSettings = builder.objectRef<Settings>('FeedSettings').implement({
  description: "A feed's settings: how its items are shown and how often it is polled.",
  fields: (t) => ({
    customAuthor: t.exposeString('customAuthor', {
      nullable: true,
      description: "Shown as every item's only author, in responses, hosted feeds and events; null shows the source's authors.",
    }),
    sort: t.field({ type: ItemSort, description: 'The order used when a request gives none.', resolve: (settings) => settings.sort }),
    paused: t.exposeBoolean('paused', { description: 'True while its owner has stopped polling; the status then says `PAUSED`.' }),
    minInterval: t.exposeInt('minIntervalSeconds', {
      nullable: true,
      description:
        'Shortest time between two scheduled fetches, in seconds, never below FEEDMILL_POLL_MIN_INTERVAL; null: the global floor.',
    }),
    filters: t.field({
      type: KeepBlock,
      description: 'What the feed shows and hides (docs/filters.md).',
      resolve: (settings) => settings.filters,
    }),
    fullText: t.exposeBoolean('fullText', {
      description:
        "Full text (docs/full-text.md): each new item's page is fetched and its article shown as the description; the teaser stays as `summaryHtml`.",
    }),
    fullTextRules: t.field({
      type: FullTextRules,
      nullable: true,
      description: "Hints for the feed's article pages; null: the extractor finds the article by itself.",
      resolve: (settings) => settings.fullTextRules,
    }),
    fetch: t.field({
      type: FetchOptions,
      nullable: true,
      description: 'What the source is sent beyond its address, without any secret; null: nothing.',
      resolve: (settings) => settings.fetchOptions,
    }),
    selectors: t.field({
      type: PageSelectors,
      nullable: true,
      description: 'The CSS selectors that read the page at `sourceUrl` (docs/selectors.md); null: the feed is read as discovery found it.',
      resolve: (settings) => settings.selectors,
    }),
    render: t.field({
      type: RenderMode,
      description: 'Whether the page is rendered in a browser before its items are read (docs/rendering.md).',
      resolve: (settings) => settings.render,
    }),
  }),
});

builder.objectField(Feed, 'settings', (t) =>
  t.field({
    type: FeedSettings,
    description: "The feed's settings.",
    resolve: (node, _args, { deps, principal }) => getFeedSettings(deps, principal, feedOf(node).id),
  }),
);

const UpdateFeedSettingsInput = builder.inputType('UpdateFeedSettingsInput', {
  description: 'What `updateFeedSettings` changes; a field left out keeps its value.',
  fields: (t) => ({
    customAuthor: t.string({
      required: false,
      description: `Shown as every item's only author, at most ${feedFieldLimits.customAuthor} characters; null resets it to the source's authors.`,
    }),
    sort: t.field({ type: ItemSort, required: false, description: 'The order used when a request gives none.' }),
    paused: t.boolean({
      required: false,
      description: '`true` stops polling; `false` resumes it (a disabled feed too), fetching at once.',
    }),
    minInterval: t.int({
      required: false,
      description:
        'The shortest time between two scheduled fetches, in seconds, at least FEEDMILL_POLL_MIN_INTERVAL; null resets it to the global floor.',
    }),
    filters: t.field({
      type: KeepBlockInput,
      required: false,
      description: 'Keep/block filters; null removes both, and in the object a rule left out is kept, null removes it.',
    }),
    fullText: t.boolean({
      required: false,
      description: 'Turning it on fills in the latest 20 items; turning it off shows the teasers again. Neither announces anything.',
    }),
    fullTextRules: t.field({ type: FullTextRulesInput, required: false, description: 'null removes them.' }),
    fetch: t.field({
      type: FetchOptionsInput,
      required: false,
      description: 'Replaces the stored fetch options whole (give every header and credential again); null removes them.',
    }),
    selectors: t.field({
      type: PageSelectorsInput,
      required: false,
      description:
        'Setting them reads the page at `sourceUrl` with them at once (`no_items_found` when they name nothing, and nothing changes); null removes them and finds the source again as a create would.',
    }),
    render: t.field({ type: RenderMode, required: false, description: 'Whether the page is rendered in a browser first.' }),
  }),
});

builder.mutationFields((t) => ({
  updateFeedSettings: t.field({
    type: FeedSettings,
    description:
      "Fields left out keep their value; `customAuthor: null` resets it to the source's authors, `minInterval: null` to the global floor. `paused: false` also resumes a disabled feed.",
    args: {
      feedId: t.arg.id({ required: true, description: 'The feed whose settings change.' }),
      input: t.arg({ type: UpdateFeedSettingsInput, required: true, description: 'The new values.' }),
    },
    // Left out and null differ for customAuthor, minInterval and filters (null resets), so `in` decides, not `??`.
    resolve: (_root, { feedId, input }, { deps, principal }) =>
      updateFeedSettings(deps, principal, feedId, {
        ...('customAuthor' in input ? { customAuthor: input.customAuthor ?? null } : {}),
        ...(input.sort ? { sort: input.sort } : {}),
        ...(typeof input.paused === 'boolean' ? { paused: input.paused } : {}),
        ...('minInterval' in input ? { minIntervalSeconds: input.minInterval ?? null } : {}),
        filters: keepBlockFromInput(input),
        ...(typeof input.fullText === 'boolean' ? { fullText: input.fullText } : {}),
        ...('fullTextRules' in input ? { fullTextRules: input.fullTextRules ?? null } : {}),
        ...('fetch' in input ? { fetch: input.fetch ? fetchOptionsFromInput(input.fetch) : null } : {}),
        ...('selectors' in input ? { selectors: input.selectors ? selectorsFromInput(input.selectors) : null } : {}),
        ...(input.render ? { render: input.render } : {}),
      }),
  }),
}));
