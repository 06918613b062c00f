import type { FeedError as Error } from '../../domain/feed.js';
import type { FeedHealth, FeedState as State } from '../../domain/feed-health.js';
import { builder } from '../builder.js';
import { upperCaseValues } from './enum-values.js';

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

export const FeedError = builder.objectRef<Error>('FeedError').implement({
  description: 'Why a fetch failed.',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The error code, as in REST error bodies (docs/errors.md lists them).' }),
    message: t.exposeString('message', { description: 'What went wrong, for humans.' }),
  }),
});

/** The feed's health (domain/feed-health.ts), as the REST `status` object carries it. */
export const FeedStatus = builder.objectRef<FeedHealth>('FeedStatus').implement({
  description: "The feed's health: how its last fetches went and when the next one is due.",
  fields: (t) => ({
    state: t.field({ type: FeedState, description: 'How the feed is doing.', resolve: (health) => health.state }),
    lastFetchedAt: t.exposeString('lastFetchedAt', {
      nullable: true,
      description: 'When the source was last fetched, successfully or not (ISO 8601 UTC).',
    }),
    lastSuccessAt: t.exposeString('lastSuccessAt', { nullable: true, description: 'When a fetch last succeeded (ISO 8601 UTC).' }),
    nextFetchAt: t.exposeString('nextFetchAt', { nullable: true, description: 'When the next fetch is planned (ISO 8601 UTC).' }),
    lastOutcome: t.exposeString('lastOutcome', {
      nullable: true,
      description:
        'What the last fetch found: `changed`, `unchanged` (answered, nothing new), `not_modified` (answered 304), or the error code of the failure.',
    }),
    consecutiveErrors: t.exposeInt('consecutiveErrors', { description: 'Failed fetches in a row; 0 after a success.' }),
    lastError: t.field({
      type: FeedError,
      nullable: true,
      description: 'Why the last fetch failed; null when it succeeded.',
      resolve: (health) => health.lastError,
    }),
    disabledAt: t.string({
      nullable: true,
      description: 'When the feed was disabled (ISO 8601 UTC); null unless `state` is `DISABLED`.',
      resolve: (health) => health.disabled?.at ?? null,
    }),
    disabledReason: t.string({
      nullable: true,
      description: 'Why the feed was disabled; null unless `state` is `DISABLED`.',
      resolve: (health) => health.disabled?.reason ?? null,
    }),
  }),
});
