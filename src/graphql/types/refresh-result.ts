import { refreshGapSeconds, refreshNow, type RefreshResult as Result } from '../../app/refresh-now.js';
import { builder } from '../builder.js';
import { Feed } from './feed.js';
import { FeedError } from './feed-status.js';

/** What `refreshFeed` answers: the REST refresh result, field for field. */
export const RefreshResult = builder.objectRef<Result>('RefreshResult').implement({
  description: 'What a refresh on demand found, and the feed (with its status) as it left it.',
  fields: (t) => ({
    outcome: t.exposeString('outcome', {
      description:
        '`changed`, `unchanged`, `not_modified` (the source answered 304), `failed` (see `error`), or `superseded` (a scheduled refresh finished first).',
    }),
    itemsNew: t.exposeInt('itemsNew', { description: 'Items this fetch stored for the first time.' }),
    itemsChanged: t.exposeInt('itemsChanged', { description: 'Stored items whose content changed.' }),
    error: t.field({
      type: FeedError,
      nullable: true,
      description: 'Why the fetch failed; null unless `outcome` is `failed`.',
      resolve: (result) => result.error,
    }),
    feed: t.field({
      type: Feed,
      description: 'The feed as the refresh left it.',
      resolve: (result) => result.feed,
    }),
  }),
});

builder.mutationFields((t) => ({
  refreshFeed: t.field({
    type: RefreshResult,
    description: `Fetches the feed now, even when paused or disabled, and answers with what it found; at most once per ${refreshGapSeconds} s per feed (\`refresh_throttled\`). A disabled feed whose fetch succeeds is active again.`,
    args: { id: t.arg.id({ required: true, description: 'The feed to fetch now.' }) },
    resolve: (_root, { id }, { deps, principal }) => refreshNow(deps, principal, id),
  }),
}));
