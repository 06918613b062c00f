import { getFeedSettings, updateFeedSettings } from '../../app/feed-settings.js';
import type { FeedSettings as Settings } from '../../domain/feed.js';
import { builder } from '../builder.js';
import { parseFiltersJson } from '../filters-json.js';
import { Feed } from './feed.js';
import { ItemSort } from './item-sort.js';

/** Spec "Feed settings", plus `sort` (DESIGN.md: the dashboard sort preference), `paused` and `minInterval`. */
export const FeedSettings = builder.objectRef<Settings>('FeedSettings').implement({
  fields: (t) => ({
    customAuthor: t.exposeString('customAuthor', {
      nullable: true,
      description: "Shown as every item's only author, in responses, hosted feeds and events; null shows the source's authors.",
    }),
    sort: t.field({ type: ItemSort, description: 'The order used when a request gives none.', resolve: (settings) => settings.sort }),
    paused: t.exposeBoolean('paused', { description: 'True while its owner has stopped polling; the status then says `paused`.' }),
    minInterval: t.exposeInt('minIntervalSeconds', {
      nullable: true,
      description: 'Shortest time between two scheduled fetches, in seconds, never below FEEDMILL_POLL_MIN_INTERVAL; null: the global floor.',
    }),
    filters: t.string({
      description: 'The keep/block filters as JSON `{"keep": filter|null, "block": filter|null}`, as in REST (README "Filters").',
      resolve: (settings) => JSON.stringify(settings.filters),
    }),
  }),
});

builder.objectField(Feed, 'settings', (t) =>
  t.field({
    type: FeedSettings,
    resolve: (feed, _args, { deps, principal }) => getFeedSettings(deps, principal, feed.id),
  }),
);

builder.mutationFields((t) => ({
  updateFeedSettings: t.field({
    type: FeedSettings,
    description:
      "Fields left out keep their value; `customAuthor: null` resets it to the source's authors, `minInterval: null` to the global floor. `paused: false` also resumes a disabled feed.",
    args: {
      feedId: t.arg.id({ required: true }),
      customAuthor: t.arg.string({ required: false }),
      sort: t.arg({ type: ItemSort, required: false }),
      paused: t.arg.boolean({ required: false, description: '`true` stops polling; `false` resumes it (a disabled feed too), fetching at once.' }),
      minInterval: t.arg.int({ required: false, description: 'Seconds, at least FEEDMILL_POLL_MIN_INTERVAL; null resets it.' }),
      filters: t.arg.string({ required: false, description: 'Keep/block filters as JSON, as the REST body carries them; null removes both.' }),
    },
    // Left out and null differ for customAuthor and minInterval (null resets), so `in` decides, not `??`.
    resolve: (_root, args, { deps, principal }) =>
      updateFeedSettings(deps, principal, args.feedId, {
        ...('customAuthor' in args ? { customAuthor: args.customAuthor ?? null } : {}),
        ...(args.sort ? { sort: args.sort } : {}),
        ...(typeof args.paused === 'boolean' ? { paused: args.paused } : {}),
        ...('minInterval' in args ? { minIntervalSeconds: args.minInterval ?? null } : {}),
        ...('filters' in args ? { filters: parseFiltersJson(args.filters) ?? null } : {}),
      }),
  }),
}));
