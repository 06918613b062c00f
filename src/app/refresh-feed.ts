import { isFeedmillError } from '../domain/errors.js';
import type { Feed } from '../domain/feed.js';
import { isPolled } from '../domain/feed-lifecycle.js';
import { openFeedAccess } from './fetch-access.js';
import { fetchDocument } from './fetch-document.js';
import { recordFailure, runPipeline, type RefreshDeps, type RefreshOutcome } from './refresh-pipeline.js';

/** A refresh on demand (POST /v1/feeds/:id/refresh) also fetches a paused or disabled feed. */
export interface RefreshOptions {
  onDemand?: boolean;
}

/**
 * The feed actor's one message: conditional GET with the validators the feed stored → parse in the
 * pool → the rest of the refresh pipeline (refresh-pipeline.ts). Called by the job handler; never
 * throws for a source failure (that is an outcome), only for our own (store) failures, which the
 * scheduler retries.
 */
export async function refreshFeed(deps: RefreshDeps, feedId: string, options: RefreshOptions = {}): Promise<RefreshOutcome | null> {
  const feed = await deps.feeds.getById(feedId);
  return feed ? refreshReadFeed(deps, feed, options) : null;
}

/** `refreshFeed` of a feed its caller has just read from the store (the job handler, to pick its queue first). */
export async function refreshReadFeed(deps: RefreshDeps, feed: Feed, options: RefreshOptions = {}): Promise<RefreshOutcome | null> {
  // A job left from before the feed was paused or disabled ends here: nothing is fetched or planned.
  if (!options.onDemand && !isPolled(feed)) return null;
  const now = deps.clock.now();
  try {
    const access = openFeedAccess(deps, feed);
    const selectors = feed.settings.selectors;
    const document = await fetchDocument(deps, feed.fetchUrl, feed.fetch, feed.fetch, {
      ...(access ? { access } : {}),
      ...(selectors ? { selectors } : {}),
      render: feed.settings.render,
    });
    return await runPipeline(deps, feed, document, now);
  } catch (error) {
    if (!isFeedmillError(error)) throw error;
    return recordFailure(deps, feed, error, now);
  }
}
