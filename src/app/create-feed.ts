import type { ApiFeedWithItems } from '../domain/api-shapes.js';
import { toApiFeedWithItems } from '../domain/api-shapes.js';
import type { Principal } from '../domain/api-key.js';
import { FeedmillError } from '../domain/errors.js';
import { defaultFeedSettings, type Feed } from '../domain/feed.js';
import { newFeedId } from '../domain/ids.js';
import { parseSourceUrl } from '../domain/source-url.js';
import { itemsShown, type AppDeps } from './deps.js';
import { fetchDocument } from './fetch-document.js';
import { hintSignals } from './poll-signals.js';
import { planNextRefresh, storeItems, type RefreshDeps } from './refresh-feed.js';

export interface CreateFeedInput {
  url: string;
}

/**
 * POST /v1/feeds {url}: fetch and parse first, so a source that can't be fetched or isn't a feed
 * creates nothing (spec "Create-feed rules" 3); then store the feed and its items and schedule
 * its actor.
 */
export async function createFeed(deps: RefreshDeps & Pick<AppDeps, 'scheduler'>, principal: Principal, input: CreateFeedInput): Promise<ApiFeedWithItems> {
  const url = parseSourceUrl(input.url);
  const document = await fetchDocument(deps, url.href);
  if (document.kind !== 'parsed') {
    throw new FeedmillError('source_unreachable', `The source at ${url.href} answered without a document; check the address`);
  }
  const parsed = document.parsed;
  if (parsed.items.length === 0) {
    throw new FeedmillError('no_items_found', `The feed at ${url.href} has no items yet; try again once it has published something`);
  }
  const now = deps.clock.now();
  const feed: Feed = {
    id: newFeedId(deps.random),
    accountId: principal.accountId,
    title: parsed.title || url.hostname,
    description: parsed.description,
    icon: parsed.icon,
    sourceUrl: url.href,
    fetchUrl: document.fetched.url,
    link: parsed.link,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    settings: defaultFeedSettings,
    fetch: { errorCount: 0, unchangedStreak: 0 },
  };
  await deps.feeds.insert(feed);
  await storeItems(deps, feed, parsed.items, now, false);
  const state = {
    ...feed.fetch,
    etag: document.fetched.etag,
    lastModified: document.fetched.lastModified,
    bodyHash: document.bodyHash,
    lastFetchedAt: now.toISOString(),
    lastStatus: 'ok',
  };
  const next = await planNextRefresh(deps, feed, state, { outcome: 'changed', ...hintSignals(document.fetched, now) }, now, document.fetched.url);
  await deps.scheduler.schedule(feed.id, next);
  const items = await deps.items.list(feed.id, feed.settings.sort, itemsShown);
  return toApiFeedWithItems(feed, items, deps.settings.publicUrl);
}
