import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import type { WebhookScope } from '../domain/webhook.js';
import { findBundle } from './bundles.js';
import type { AppDeps } from './deps.js';
import { findFeed } from './find-feed.js';

/**
 * Which of an account's feed events a listener wants: every one when neither list is given,
 * otherwise those of the listed feeds and of the feeds that are members of the listed bundles
 * (passingEvent in event-filters.ts applies it).
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
