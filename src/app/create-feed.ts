import type { Principal } from '../domain/api-key.js';
import { FeedmillError, isFeedmillError, isSourceFailure } from '../domain/errors.js';
import { defaultFeedSettings, type Feed } from '../domain/feed.js';
import { shownItem, type FeedWithItems } from '../domain/shown-item.js';
import { newFeedId } from '../domain/ids.js';
import type { ParsedItem } from '../domain/item.js';
import { identifyItems } from '../domain/item-identity.js';
import { keywordSearchUrl, keywordSourceUrl, parseRegion } from '../domain/keyword-source.js';
import { parseSourceUrl } from '../domain/source-url.js';
import type { AppDeps } from './deps.js';
import { feedItems } from './shown-items.js';
import { runPipeline, type RefreshDeps } from './refresh-pipeline.js';
import { resolveSource, type ResolvedSource } from './discover-feeds.js';
import { expectedMessage } from '../domain/field-message.js';
import type { RenderMode } from '../domain/render-mode.js';

/**
 * Spec "Create-feed rules": a `url`, or a `keyword` with a `region`. A `url` may say whether its page
 * is rendered in a browser (`render`, docs/rendering.md).
 */
export type CreateFeedInput = { url: string; render?: RenderMode } | { keyword: string; region: string };

const maxKeywordLength = 500;

/** Where the feed comes from, and the `source_url` the user sees. */
async function locate(deps: RefreshDeps, input: CreateFeedInput): Promise<{ sourceUrl: string; source: ResolvedSource }> {
  if ('url' in input) {
    const url = parseSourceUrl(input.url);
    return { sourceUrl: url.href, source: await resolveSource(deps, url.href, { render: input.render ?? 'auto' }) };
  }
  const keyword = input.keyword.trim();
  // Counted in code points, as the schema's `maxLength` counts them.
  const length = [...keyword].length;
  if (length === 0 || length > maxKeywordLength) {
    throw new FeedmillError(
      'validation_failed',
      expectedMessage('keyword', `a keyword of 1 to ${maxKeywordLength} characters`, { said: `${length} characters` }),
    );
  }
  const region = parseRegion(input.region);
  const upstream = keywordSearchUrl(deps.settings.keywordSearchUrl, keyword, region);
  return { sourceUrl: keywordSourceUrl(deps.settings.publicUrl, keyword, region), source: await resolveSource(deps, upstream) };
}

/** Source failures that may pass by themselves, so the same request may work later: 429 and 5xx, not a 404. */
const mayPass = (error: FeedmillError): boolean => {
  if (error.code !== 'upstream_status') return ['source_unreachable', 'upstream_timeout', 'parse_timeout'].includes(error.code);
  const status = Number(error.details.status);
  return status === 429 || status >= 500;
};

/**
 * A create that failed created nothing, so nothing will retry it: the message says so, and what the
 * caller can do, in place of any promise the fetcher's message could be read as.
 */
function createFailure(error: unknown): unknown {
  if (!isFeedmillError(error) || !isSourceFailure(error.code)) return error;
  const retryAfter = error.details.retryAfter;
  const advice = mayPass(error)
    ? `check the address, and send the request again later${retryAfter === undefined ? '' : ` (the source asked for ${retryAfter} s)`}`
    : 'check the address';
  return new FeedmillError(error.code, `${error.message}; nothing was created: ${advice}`, error.details);
}

/** A new feed's title: the document's, else the host it came from. */
const titleOf = (source: ResolvedSource): string => source.parsed.title || new URL(source.fetched.url).hostname;

/** How many items a preview shows: enough to recognise the source. */
const previewSize = 10;

/**
 * What creating a feed from this input would read, without storing anything or scheduling a
 * fetch: the dashboard shows it before the person saves. It runs the create's pipeline up to the
 * store: the same source found, read and parsed, its items identified as the first run stores them
 * (an item listed twice, once).
 */
export async function previewFeed(
  deps: RefreshDeps,
  input: CreateFeedInput,
): Promise<{ title: string; sourceUrl: string; items: ParsedItem[] }> {
  const { sourceUrl, source } = await locate(deps, input);
  const items = identifyItems(source.parsed.items).map(({ item }) => item);
  return { title: titleOf(source), sourceUrl, items: items.slice(0, previewSize) };
}

/**
 * POST /v1/feeds: find and read the source first, so one that can't be fetched, or is neither a feed
 * nor a page of articles, creates nothing (spec "Create-feed rules" 3); then store the feed, run the
 * refresh pipeline over the document read (the feed's first run: its items are a baseline, announced
 * to no one) and schedule its actor.
 */
export async function createFeed(
  deps: RefreshDeps & Pick<AppDeps, 'scheduler' | 'metrics'>,
  principal: Principal,
  input: CreateFeedInput,
): Promise<FeedWithItems> {
  let located: Awaited<ReturnType<typeof locate>>;
  try {
    located = await locate(deps, input);
  } catch (error) {
    throw createFailure(error);
  }
  const { sourceUrl, source } = located;
  // A feed with no items yet is created all the same: it is active, and items come when it publishes.
  const { parsed, fetched } = source;
  const now = deps.clock.now();
  const feed: Feed = {
    id: newFeedId(deps.random),
    accountId: principal.accountId,
    title: titleOf(source),
    description: parsed.description,
    icon: parsed.icon,
    sourceUrl,
    fetchUrl: fetched.url,
    link: parsed.link,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    settings: 'url' in input && input.render ? { ...defaultFeedSettings, render: input.render } : defaultFeedSettings,
    // Manual selectors (to come) will be one more way to read a page: a field beside `extractor` here.
    fetch: {
      errorCount: 0,
      unchangedStreak: 0,
      reader: source.reader,
      ...(source.extractor ? { extractor: source.extractor } : {}),
      ...(source.followed ? { followed: source.followed } : {}),
      ...(source.rendered ? { rendered: true } : {}),
    },
  };
  await deps.feeds.insert(feed);
  // The document that finding the source read is the first run's: the source is not fetched twice.
  const firstRun = await runPipeline(deps, feed, source, now, 'first');
  const { fetchState, health } = firstRun;
  // Nothing else writes a feed that is not scheduled yet: being superseded here is a bug.
  if (!fetchState || !health) {
    throw new Error(`Expected the first items of the new feed ${feed.id} to be its first commit, but another write came first`);
  }
  // A new feed is never paused or disabled: it always has a next run.
  const next = firstRun.nextRunAt ?? now;
  await deps.scheduler.schedule(feed.id, next);
  deps.metrics.feedState(feed.id, health.state, next);
  const items = await feedItems(deps, feed, feed.settings.sort);
  return { feed: { ...feed, fetch: fetchState }, items: items.map((item) => shownItem(item, feed.settings.customAuthor)) };
}
