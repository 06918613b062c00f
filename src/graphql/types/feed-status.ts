import type { FeedState as State } from '../../domain/feed-health.js';
import { builder } from '../builder.js';
import { upperCaseValues } from './enum-values.js';
import type { FeedStatusShape } from '../shapes/feed.js';

const stateDocs: Record<State, string> = {
  active: 'Fetched on schedule; the last fetch succeeded.',
  failing: 'The last fetch failed; it is retried with exponential backoff up to FEEDMILL_POLL_MAX_INTERVAL.',
  paused: 'Its owner paused it (settings `paused`); it is not polled.',
  disabled: 'Every fetch failed for FEEDMILL_FEED_DISABLE_AFTER seconds; it is not polled until resumed.',
};

const FeedState = builder.enumType('FeedState', {
  description: 'How a feed is doing. A disabled feed is resumed by `paused: false` in its settings, or by a `refreshFeed` that succeeds.',
  values: upperCaseValues(stateDocs),
});

export const FeedError = builder.objectRef<NonNullable<FeedStatusShape['last_error']>>('FeedError').implement({
  description: 'Why a fetch failed.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The error code, as in REST error bodies (README lists them).' }),
    message: t.exposeString('message', { description: 'What went wrong, for humans.' }),
  }),
});

/** The REST `status` object, field for field. */
export const FeedStatus = builder.objectRef<FeedStatusShape>('FeedStatus').implement({
  description: "The feed's health: how its last fetches went and when the next one is due.",
  fields: (t) => ({
    state: t.field({ type: FeedState, description: 'How the feed is doing.', resolve: (status) => status.state }),
    last_fetched_at: t.exposeString('last_fetched_at', {
      nullable: true,
      description: 'When the source was last fetched, successfully or not (ISO 8601 UTC).',
    }),
    last_success_at: t.exposeString('last_success_at', { nullable: true, description: 'When a fetch last succeeded (ISO 8601 UTC).' }),
    next_fetch_at: t.exposeString('next_fetch_at', { nullable: true, description: 'When the next fetch is planned (ISO 8601 UTC).' }),
    last_outcome: t.exposeString('last_outcome', {
      nullable: true,
      description:
        'What the last fetch found: `changed`, `unchanged` (answered, nothing new), `not_modified` (answered 304), or the error code of the failure.',
    }),
    consecutive_errors: t.exposeInt('consecutive_errors', { description: 'Failed fetches in a row; 0 after a success.' }),
    last_error: t.field({
      type: FeedError,
      nullable: true,
      description: 'Why the last fetch failed; null when it succeeded.',
      resolve: (status) => status.last_error,
    }),
    disabled_at: t.exposeString('disabled_at', {
      nullable: true,
      description: 'When the feed was disabled (ISO 8601 UTC); null unless `state` is `DISABLED`.',
    }),
    disabled_reason: t.exposeString('disabled_reason', {
      nullable: true,
      description: 'Why the feed was disabled; null unless `state` is `DISABLED`.',
    }),
  }),
});
