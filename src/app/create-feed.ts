import type { Principal } from '../domain/api-key.js';
import { FeedmillError, fieldRefusal, isFeedmillError, isSourceFailure } from '../domain/errors.js';
import { defaultFeedSettings, type Feed } from '../domain/feed.js';
import { shownItem, type FeedWithItems } from '../domain/shown-item.js';
import { newFeedId } from '../domain/ids.js';
import { keywordSearchUrl, keywordSourceUrl, parseRegion } from '../domain/keyword-source.js';
import { parsePageSelectors, type PageSelectors } from '../domain/page-selectors.js';
import { parseSourceUrl } from '../domain/source-url.js';
import type { FollowedCandidate } from '../domain/platforms/feed-candidate.js';
import type { StoredItem } from '../domain/stored-item.js';
import { diffItems } from '../domain/item-diff.js';
import type { AppDeps } from './deps.js';
import { scheduleRefresh } from './refresh-queue.js';
import { feedItems } from './shown-items.js';
import { runPipeline, type RefreshDeps } from './refresh-pipeline.js';
import { readSelectedPage, resolveSource, type ResolvedSource } from './discover-feeds.js';
import { expectedMessage } from '../domain/field-message.js';
import { parseFetchOptions, type FetchOptions } from '../domain/fetch-options.js';
import { accessFor, sealFetchOptions } from './fetch-access.js';
import type { RenderMode } from '../domain/render-mode.js';
import type { ReadOptions } from './read-options.js';

/**
 * Spec "Create-feed rules": a `url`, or a `keyword` with a `region`. A `url` may carry the reading
 * options of a page, as the request sent them (checked here whatever their static type): `selectors`
 * (docs/selectors.md), `fetch` options (docs/fetch-options.md) and whether
 * its page is rendered in a browser (`render`, docs/rendering.md).
 */
export type CreateFeedInput =
  { url: string; selectors?: PageSelectors; fetch?: unknown; render?: RenderMode } | { keyword: string; region: string };

const maxKeywordLength = 500;

/** What a create reads: where the feed comes from, the `source_url` the user sees, and how it is read. */
interface Located {
  sourceUrl: string;
  source: ResolvedSource;
  selectors: PageSelectors | null;
  fetchOptions: FetchOptions | null;
}

/** Where the feed comes from, the `source_url` the user sees, and what its source needs beyond it. */
async function locate(deps: RefreshDeps, input: CreateFeedInput): Promise<Located> {
  if ('url' in input) {
    // Checked before the address, so a bad selector is refused without a fetch.
    const selectors = input.selectors === undefined ? null : parsePageSelectors(input.selectors);
    const url = parseSourceUrl(input.url);
    const fetchOptions = parseFetchOptions(input.fetch);
    const access = accessFor(url.href, fetchOptions);
    const options: ReadOptions = { render: input.render ?? 'auto', ...(access ? { access } : {}) };
    const source = selectors ? await readSelectedPage(deps, url.href, selectors, options) : await resolveSource(deps, url.href, options);
    return { sourceUrl: url.href, source, selectors, fetchOptions };
  }
  const keyword = input.keyword.trim();
  // Counted in code points, as the schema's `maxLength` counts them.
  const length = [...keyword].length;
  if (length === 0 || length > maxKeywordLength) {
    throw fieldRefusal(
      'keyword',
      expectedMessage('keyword', `a keyword of 1 to ${maxKeywordLength} characters`, { said: `${length} characters` }),
    );
  }
  const region = parseRegion(input.region);
  const upstream = keywordSearchUrl(deps.settings.keywordSearchUrl, keyword, region);
  return {
    sourceUrl: keywordSourceUrl(deps.settings.publicUrl, keyword, region),
    source: await resolveSource(deps, upstream),
    fetchOptions: null,
    selectors: null,
  };
}

/** Source failures that may pass by themselves, so the same request may work later: 429 and 5xx, not a 404. */
const mayPass = (error: FeedmillError): boolean => {
  if (error.code !== 'upstream_status') return ['source_unreachable', 'upstream_timeout', 'parse_timeout'].includes(error.code);
  const status = Number(error.details.status);
  return status === 429 || status >= 500;
};

/** A 401 or 403: the source wants something the request did not bring (a key, a login). */
const credentialsRefused = (error: FeedmillError): boolean =>
  error.code === 'upstream_status' && [401, 403].includes(Number(error.details.status));

/**
 * A call that met a source failure stored nothing, and nothing will retry it: its message says so
 * with `outcome` (what became of the call, what the caller can do), in place of any promise the
 * fetcher's message could be read as. Other errors pass as they are.
 */
function storedNothing(error: unknown, outcome: (failure: FeedmillError) => string): unknown {
  if (!isFeedmillError(error) || !isSourceFailure(error.code)) return error;
  return new FeedmillError(error.code, `${error.message}; ${outcome(error)}`, error.details);
}

/** A preview stores nothing whatever happens: its failures say only what the source did. */
const previewOutcome = (): string => 'this was a preview: nothing was created';

function createOutcome(error: FeedmillError): string {
  const retryAfter = error.details.retryAfter;
  const advice = mayPass(error)
    ? `check the address, and send the request again later${retryAfter === undefined ? '' : ` (the source asked for ${retryAfter} s)`}`
    : credentialsRefused(error)
      ? 'check the address, and the `fetch` options the source needs (docs/fetch-options.md)'
      : 'check the address';
  return `nothing was created: ${advice}`;
}

/** A new feed's title: the document's, else the host it came from. */
const titleOf = (source: ResolvedSource): string => source.parsed.title || new URL(source.fetched.url).hostname;

/** The most fetches one preview may make: the address, a platform's resolver, and the candidates tried. */
export const previewFetchBudget = 12;

/** A feed as creating it would make it, stored nowhere: no id, no hosted address, no health yet. */
export interface FeedPreview {
  title: string;
  description: string;
  icon: string;
  link: string;
  sourceUrl: string;
  followed: FollowedCandidate | null;
  /** As the create's first run would store and show them, in the page's or feed's order. */
  items: StoredItem[];
}

/**
 * What creating a feed from this input would read, without storing anything or scheduling a
 * fetch: `POST /v1/feeds/preview` and the dashboard's Preview. It runs the create's pipeline up to
 * the store: the same source found, read and parsed, its items identified as the first run stores
 * them (an item listed twice, once), with at most `previewFetchBudget` fetches.
 * @throws FeedmillError as a create would (400 for a bad input, a source failure when it yields nothing)
 */
export async function previewFeed(deps: RefreshDeps & Pick<AppDeps, 'fetcherWithBudget'>, input: CreateFeedInput): Promise<FeedPreview> {
  let located: Located;
  try {
    located = await locate({ ...deps, fetcher: deps.fetcherWithBudget(previewFetchBudget) }, input);
  } catch (error) {
    throw storedNothing(error, previewOutcome);
  }
  const { sourceUrl, source } = located;
  const now = deps.clock.now().toISOString();
  const items = diffItems('', source.parsed.items, new Map(), now).fresh.map((item) => shownItem(item, null));
  return {
    title: titleOf(source),
    description: source.parsed.description,
    icon: source.parsed.icon,
    link: source.parsed.link,
    sourceUrl,
    followed: source.followed ?? null,
    items,
  };
}

/**
 * POST /v1/feeds: find and read the source first, so one that can't be fetched, or is neither a feed
 * nor a page of articles, creates nothing (spec "Create-feed rules" 3); then store the feed, run the
 * refresh pipeline over the document read (the feed's first run: its items are a baseline, announced
 * to no one) and schedule its actor.
 */
export async function createFeed(
  deps: RefreshDeps & Pick<AppDeps, 'scheduler' | 'renderScheduler' | 'metrics'>,
  principal: Principal,
  input: CreateFeedInput,
): Promise<FeedWithItems> {
  let located: Located;
  try {
    located = await locate(deps, input);
  } catch (error) {
    throw storedNothing(error, createOutcome);
  }
  const { sourceUrl, source, selectors, fetchOptions } = located;
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
    settings: {
      ...defaultFeedSettings,
      selectors,
      fetchOptions: sealFetchOptions(deps, fetchOptions),
      ...('url' in input && input.render ? { render: input.render } : {}),
    },
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
  await scheduleRefresh(deps, { ...feed, fetch: fetchState }, next);
  deps.metrics.feedState(feed.id, health.state, next);
  const items = await feedItems(deps, feed, feed.settings.sort);
  return { feed: { ...feed, fetch: fetchState }, items: items.map((item) => shownItem(item, feed.settings.customAuthor)) };
}
