import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../webhook-event/feed-update-event.js';
import type { WebhookScope } from '../domain/webhook.js';
import { coveringBundleFilters, eventCategories, filtersNeedCategories, throughBundles } from './bundle-scope.js';
import { findBundle } from './bundles.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';

/**
 * Which of an account's feed events a listener wants: every one when neither list is given,
 * otherwise those of the listed feeds and of the feeds that are members of the listed bundles.
 */
export interface EventScope {
  accountId: string;
  feedIds?: readonly string[];
  bundleIds?: readonly string[];
}

/** A webhook's stored scope, as the one scope rule reads it. */
export function webhookEventScope(accountId: string, scope: WebhookScope): EventScope {
  if (scope.kind === 'feeds') return { accountId, feedIds: scope.feedIds };
  if (scope.kind === 'bundles') return { accountId, bundleIds: scope.bundleIds };
  return { accountId };
}

/**
 * The scope rule, for webhook dispatch, the event stream and GraphQL `feedUpdate` alike: the event
 * as this listener sees it, or undefined when it is not the listener's. The event must be the
 * account's before anything else is looked at; bundle membership is read at event time, so a feed
 * added to a bundle later is covered and one removed is not; through bundles only, the covering
 * bundles' keep/block filters apply (a bundle without filters keeps every item).
 */
export async function scopedEvent(
  deps: Pick<AppDeps, 'bundles' | 'items' | 'clock'>,
  scope: EventScope,
  envelope: FeedEventEnvelope,
): Promise<FeedUpdateEvent | undefined> {
  if (envelope.accountId !== scope.accountId) return undefined;
  if (scope.feedIds === undefined && scope.bundleIds === undefined) return envelope.event;
  if (scope.feedIds?.includes(envelope.feedId)) return envelope.event;
  const filters = await coveringBundleFilters(deps, envelope, scope.bundleIds ?? []);
  if (filters.length === 0) return undefined;
  return throughBundles(
    envelope.event,
    filters,
    deps.clock.now(),
    filtersNeedCategories(filters) ? await eventCategories(deps, envelope) : [],
  );
}

/**
 * A listener's scope from the ids it asked for, each checked before anything streams: another
 * account's feed or bundle is not found (never a silently empty stream), and an empty list is a
 * mistake (leaving the list out means every feed).
 */
export async function resolveEventScope(
  deps: Pick<AppDeps, 'feeds' | 'bundles'>,
  principal: Principal,
  asked: { feedIds?: readonly string[] | undefined; bundleIds?: readonly string[] | undefined },
  names: { feeds: string; bundles: string },
): Promise<EventScope> {
  for (const [name, ids] of [
    [names.feeds, asked.feedIds],
    [names.bundles, asked.bundleIds],
  ] as const) {
    if (ids?.length === 0)
      throw new FeedmillError('validation_failed', `Expected at least one id in \`${name}\`; leave it out to receive every feed`);
  }
  const feedIds = asked.feedIds && [...new Set(asked.feedIds)];
  const bundleIds = asked.bundleIds && [...new Set(asked.bundleIds)];
  for (const feedId of feedIds ?? []) await findFeed(deps, principal, feedId);
  for (const bundleId of bundleIds ?? []) await findBundle(deps, principal, bundleId);
  return { accountId: principal.accountId, ...(feedIds ? { feedIds } : {}), ...(bundleIds ? { bundleIds } : {}) };
}
