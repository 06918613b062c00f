import { FeedmillError, isFeedmillError } from '../domain/errors.js';
import type { FeedLink, ParsedPage } from '../domain/item.js';
import type { FeedCandidate, FollowedCandidate } from '../domain/platforms/feed-candidate.js';
import { isPending, platformMatcher, type PlatformMatch } from '../domain/platforms/platform-match.js';
import type { PageSelectors } from '../domain/page-selectors.js';
import type { FeedFormat, PlatformRule } from '../domain/platforms/platform-rule.js';
import type { FetchResult, SourceAccess } from '../ports/fetcher.js';
import { late, startDeadline, type Deadline } from './deadline.js';
import type { AppDeps } from './deps.js';
import { bodyHashOf, fetchDocument, type ParsedDocument, type SourceReader } from './fetch-document.js';
import { resolvePlatformFeed } from './platform-resolvers.js';
import type { ReadOptions } from './read-options.js';
import { renderAdvice, renderPage, rendersWhenServedListsNothing } from './render-page.js';

type DiscoverDeps = Pick<AppDeps, 'fetcher' | 'renderer' | 'parser' | 'settings'>;

/** A document read from a candidate: what a new feed's first run stores. */
export interface ResolvedSource extends ParsedDocument {
  reader: SourceReader;
  extractor?: FeedCandidate['extractor'];
  /** The candidate followed, when the address given was not itself the feed. */
  followed?: FollowedCandidate;
  /** The page's items were read from it as rendered in a browser; its refreshes render it too. */
  rendered?: boolean;
}

/** Common feed addresses of blogs and CMSs, tried when a page names no feed and no rule knows it. */
const wellKnownPaths = ['/feed', '/rss.xml', '/atom.xml', '/index.xml', '/feed.xml'];
/** One discovery (or create) fetches at most this many candidates: pasting a page must not cost dozens of fetches. */
export const maxConfirmed = 10;
/** Candidates confirmed at once by `GET /v1/discover`, so a slow host does not hold the others up. */
const confirmConcurrency = 4;

const matchers = new WeakMap<readonly PlatformRule[], (pageUrl: string) => PlatformMatch | undefined>();
/** The rule table's matcher, compiled once per table. */
function matchPlatform(rules: readonly PlatformRule[], pageUrl: string): PlatformMatch | undefined {
  let matcher = matchers.get(rules);
  if (!matcher) matchers.set(rules, (matcher = platformMatcher(rules)));
  return matcher(pageUrl);
}

function looksLikeHtml(fetched: FetchResult & { status: 200 }): boolean {
  if (fetched.contentType && /html/i.test(fetched.contentType)) return true;
  const head = Buffer.from(fetched.body.subarray(0, 1024)).toString('latin1').toLowerCase();
  return head.includes('<!doctype html') || head.includes('<html');
}

const linkFormats: Record<FeedLink['type'], FeedFormat> = { rss: 'rss', atom: 'atom', json: 'json_feed' };

/** What reading the address itself found, before any candidate is fetched. */
interface Gathered {
  /** Rule and advertised candidates, in that order, not yet confirmed. */
  listed: FeedCandidate[];
  /** Well-known paths to try: listed only if one answers with a feed. */
  wellKnown: FeedCandidate[];
  /** The address itself, read as a feed (`direct`) or as a page of items (`page`). */
  own?: { candidate: FeedCandidate; document: ResolvedSource };
  /** Why the address itself gave nothing: unreachable, not a feed, no items. */
  failure?: FeedmillError;
}

/** Runs one step within the deadline; a failure (or lateness) is noted, the step gives nothing. */
type Attempt = <T>(work: Promise<T>, what: string) => Promise<T | undefined>;

/** What reading the address itself gave: a feed, a page's items, the feeds it links. */
interface AddressReading {
  fetched?: FetchResult & { status: 200 };
  own?: Gathered['own'];
  advertised: FeedCandidate[];
  pageHtml?: string;
}

/**
 * The page's items: as served, or as a browser renders it when `render` is `always`, or `auto` and
 * the page as served lists none (`rendersWhenServedListsNothing`).
 */
async function readPage(
  deps: DiscoverDeps,
  fetched: FetchResult & { status: 200 },
  attempt: Attempt,
  options: ReadOptions,
): Promise<{ page?: ParsedPage; rendered?: FetchResult & { status: 200 } }> {
  const meta = (from: FetchResult & { status: 200 }) => ({
    url: from.url,
    contentType: from.contentType,
    contentLocation: from.contentLocation,
  });
  const render = async () => {
    const document = { body: fetched.body, ...(fetched.contentType ? { contentType: fetched.contentType } : {}) };
    return attempt(renderPage(deps, { url: fetched.url, document }), 'Rendering');
  };
  if (options.render === 'always') {
    // Without a browser this is the caller's mistake to hear about, not a page without items.
    if (!deps.renderer) await renderPage(deps, { url: fetched.url });
    const rendered = await render();
    if (rendered === undefined) return {};
    return { page: await attempt(deps.parser.extractPage(rendered.body, meta(rendered)), 'Reading'), rendered };
  }
  const rendering = rendersWhenServedListsNothing(deps, options.render);
  // The extractor says `no_items_found` of a page without items: with a browser at hand, that is
  // the question rendering answers, so the error is only kept for when rendering finds nothing either.
  let empty: FeedmillError | undefined;
  const page = await attempt(
    deps.parser.extractPage(fetched.body, meta(fetched)).catch((error: unknown) => {
      if (!isFeedmillError(error) || error.code !== 'no_items_found') throw error;
      if (!rendering) throw new FeedmillError('no_items_found', `${error.message}${renderAdvice(deps, options.render)}`, error.details);
      empty = error;
      return undefined;
    }),
    'Reading',
  );
  if (!rendering || (page !== undefined && page.items.length > 0) || (page === undefined && empty === undefined)) {
    return page ? { page } : {};
  }
  const rendered = await render();
  const again = rendered && (await attempt(deps.parser.extractPage(rendered.body, meta(rendered)), 'Reading'));
  // The rendered reading is kept only when it found what the page as served did not.
  if (again && again.items.length > 0) return { page: { ...again, feedLinks: page?.feedLinks ?? again.feedLinks }, rendered };
  return page ? { page } : {};
}

async function readAddress(
  deps: DiscoverDeps,
  url: URL,
  attempt: Attempt,
  options: ReadOptions,
): Promise<AddressReading & { failure?: FeedmillError }> {
  const fetched = await attempt(deps.fetcher.fetch({ url: url.href, ...(options.access ? { access: options.access } : {}) }), 'Fetching');
  if (fetched === undefined) return { advertised: [] };
  if (fetched.status !== 200) {
    const failure = new FeedmillError('source_unreachable', `The source at ${url.href} answered without a document; check the address`);
    return { advertised: [], failure };
  }
  const meta = { url: fetched.url, contentType: fetched.contentType, contentLocation: fetched.contentLocation };
  const bodyHash = bodyHashOf(fetched.body);
  if (!looksLikeHtml(fetched)) {
    const parsed = await attempt(deps.parser.parse(fetched.body, meta), 'Reading');
    if (parsed === undefined) return { fetched, advertised: [] };
    const candidate: FeedCandidate = {
      url: fetched.url,
      title: parsed.title || null,
      format: parsed.format ?? 'rss',
      source: 'direct',
      confirmed: true,
    };
    return { fetched, advertised: [], own: { candidate, document: { kind: 'parsed', reader: 'feed', fetched, bodyHash, parsed } } };
  }
  const pageHtml = Buffer.from(fetched.body).toString('utf8');
  const { page, rendered } = await readPage(deps, fetched, attempt, options);
  if (page === undefined) return { fetched, advertised: [], pageHtml };
  const advertised = page.feedLinks.map((link): FeedCandidate => ({
    url: link.url,
    title: link.title || null,
    format: linkFormats[link.type],
    source: 'advertised',
    confirmed: false,
  }));
  if (page.items.length === 0) {
    const failure = new FeedmillError('no_items_found', `${noItemsMessage(url.href)}${renderAdvice(deps, options.render)}`);
    return { fetched, advertised, pageHtml, failure };
  }
  const candidate: FeedCandidate = { url: fetched.url, title: page.title || null, format: 'page', source: 'page', confirmed: true };
  const followed: FollowedCandidate = { url: fetched.url, source: 'page' };
  const document: ResolvedSource = rendered
    ? { kind: 'parsed', reader: 'page', fetched: rendered, bodyHash: bodyHashOf(rendered.body), parsed: page, followed, rendered: true }
    : { kind: 'parsed', reader: 'page', fetched, bodyHash, parsed: page, followed };
  return { fetched, advertised, pageHtml, own: { candidate, document } };
}

async function gather(deps: DiscoverDeps, url: URL, deadline: Deadline, options: ReadOptions = {}): Promise<Gathered> {
  let failure: FeedmillError | undefined;
  const attempt: Attempt = async (work, what) => {
    try {
      const result = await deadline.race(work);
      if (result !== late) return result;
      failure ??= new FeedmillError('upstream_timeout', `${what} ${url.href} took longer than discovery's time budget`);
    } catch (error) {
      if (!isFeedmillError(error)) throw error;
      failure ??= error;
    }
    return undefined;
  };
  const reading = await readAddress(deps, url, attempt, options);
  failure ??= reading.failure;
  const { fetched, own, advertised, pageHtml } = reading;
  if (own?.candidate.source === 'direct') return { listed: [], wellKnown: [], own };
  const rule = await Promise.all(
    (matchPlatform(deps.settings.platformRules, url.href)?.feeds ?? []).map(async (feed) => {
      if (!isPending(feed)) {
        const { rule: _rule, ...rest } = feed;
        return { ...rest, title: null, source: 'rule', confirmed: false } satisfies FeedCandidate;
      }
      return attempt(resolvePlatformFeed(feed, { deps, pageHtml }), 'Resolving');
    }),
  );
  // A rule naming this very page (a Telegram channel's t.me/s/…) reads it better than the
  // heuristics, with its own extractor: the page's own reading comes after it.
  const listed = unique([...rule.flatMap((candidate) => candidate ?? []), ...advertised]);
  const wellKnown =
    listed.length === 0 && fetched !== undefined
      ? wellKnownPaths
          .map((path): FeedCandidate => ({
            url: new URL(path, fetched.url).href,
            title: null,
            format: 'rss',
            source: 'well-known',
            confirmed: false,
          }))
          .filter((candidate) => candidate.url !== fetched.url)
      : [];
  return { listed, wellKnown, ...(own ? { own } : {}), ...(failure ? { failure } : {}) };
}

const noItemsMessage = (url: string): string =>
  `No feed and no articles were found at ${url}; give the address of the page that lists the articles, or of the feed`;

/** Candidates in order, the first of each address kept. */
const unique = (candidates: FeedCandidate[]): FeedCandidate[] => {
  const seen = new Set<string>();
  return candidates.filter((candidate) => !seen.has(candidate.url) && seen.add(candidate.url));
};

/** An answer that says the candidate is no feed (as opposed to one that could not be had now). */
function refutes(error: FeedmillError): boolean {
  if (error.code === 'not_a_feed' || error.code === 'no_items_found') return true;
  const status = Number(error.details.status);
  return error.code === 'upstream_status' && status >= 400 && status < 500 && status !== 429;
}

type Confirmation = { document: ResolvedSource } | { error: FeedmillError };

async function confirm(deps: DiscoverDeps, candidate: FeedCandidate, access?: SourceAccess): Promise<Confirmation> {
  const reader: SourceReader = candidate.format === 'page' ? 'page' : 'feed';
  try {
    const document = await fetchDocument(
      deps,
      candidate.url,
      {},
      { reader, ...(candidate.extractor ? { extractor: candidate.extractor } : {}) },
      access ? { access } : {},
    );
    // Nothing was read before, so there is no validator or hash for the answer to match.
    if (document.kind !== 'parsed') throw new Error(`Expected a first read of ${candidate.url} to be parsed, got ${document.kind}`);
    const followed: FollowedCandidate = {
      url: candidate.url,
      source: candidate.source === 'direct' ? 'advertised' : candidate.source,
      ...(candidate.platform ? { platform: candidate.platform } : {}),
    };
    return { document: { ...document, reader, ...(candidate.extractor ? { extractor: candidate.extractor } : {}), followed } };
  } catch (error) {
    if (isFeedmillError(error)) return { error };
    throw error;
  }
}

/** The candidate as confirmed: its document's own title and format. */
const confirmed = (candidate: FeedCandidate, document: ResolvedSource): FeedCandidate => ({
  ...candidate,
  title: document.parsed.title || candidate.title,
  format: document.reader === 'page' ? 'page' : (document.parsed.format ?? candidate.format),
  confirmed: true,
});

/** What a discovery found, and why the address itself gave nothing, when it did not. */
export interface Discovery {
  candidates: FeedCandidate[];
  pageError: FeedmillError | null;
}

/**
 * `GET /v1/discover`: every feed a pasted address could become, best first — the platform's own
 * feeds (rules: no fetch needed, so listed even when the page cannot be reached), the feeds the page
 * advertises, feeds at well-known paths that answer, and last the page's own items. Up to
 * `maxConfirmed` candidates are fetched to confirm their title and format, within the operator's
 * time budget; a rule's or page's candidate not confirmed by then is listed unconfirmed, one whose
 * answer refuted it (a 404, not a feed) is left out.
 */
export async function discoverFeeds(deps: DiscoverDeps, url: URL): Promise<Discovery> {
  const deadline = startDeadline(deps.settings.discoverTimeoutMs);
  const gathered = await gather(deps, url, deadline);
  const queue = [...gathered.listed, ...gathered.wellKnown].slice(0, maxConfirmed);
  const results = new Map<string, Confirmation>();
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined && !deadline.passed; next = queue.shift()) {
      const result = await deadline.race(confirm(deps, next));
      if (result !== late) results.set(next.url, result);
    }
  };
  await Promise.all(Array.from({ length: confirmConcurrency }, worker));
  const shown = (candidate: FeedCandidate, unconfirmedToo: boolean): FeedCandidate[] => {
    const result = results.get(candidate.url);
    if (result === undefined) return unconfirmedToo ? [candidate] : [];
    if ('document' in result) return [confirmed(candidate, result.document)];
    return unconfirmedToo && !refutes(result.error) ? [candidate] : [];
  };
  const own = gathered.own?.candidate;
  const candidates = [
    ...(own?.source === 'direct' ? [own] : []),
    ...gathered.listed.flatMap((candidate) => shown(candidate, true)),
    ...gathered.wellKnown.flatMap((candidate) => shown(candidate, false)),
    // The page's heuristic reading is not listed beside a rule that reads the same page.
    ...(own?.source === 'page' && !gathered.listed.some((candidate) => candidate.url === own.url) ? [own] : []),
  ];
  return { candidates, pageError: own ? null : (gathered.failure ?? null) };
}

/**
 * The source a new feed reads: the address itself when it is a feed; else the best candidate, in
 * discovery's order, whose feed has items; else the page's own items; else a feed that has no items
 * yet (the user asked for this source, and items come when it publishes them). Candidates are tried
 * one at a time and the first with items wins, so a create costs no more fetches than it needs.
 * Not bounded by the discovery budget: a create waits for its source as long as the fetcher allows.
 * `options.access` goes with every fetch; the fetcher sends it to the source's own origin only.
 * @throws FeedmillError why the address gave nothing, when no candidate did either
 */
export async function resolveSource(deps: DiscoverDeps, url: string, options: ReadOptions = {}): Promise<ResolvedSource> {
  const gathered = await gather(deps, new URL(url), startDeadline(Number.POSITIVE_INFINITY), { render: 'auto', ...options });
  if (gathered.own?.candidate.source === 'direct') return gathered.own.document;
  let empty: ResolvedSource | undefined;
  let firstError: FeedmillError | undefined;
  for (const candidate of [...gathered.listed, ...gathered.wellKnown].slice(0, maxConfirmed)) {
    const result = await confirm(deps, candidate, options.access);
    if ('error' in result) {
      if (candidate.source !== 'well-known') firstError ??= result.error;
      continue;
    }
    if (result.document.parsed.items.length > 0) return result.document;
    empty ??= result.document;
  }
  if (gathered.own) return gathered.own.document;
  if (empty) return empty;
  throw gathered.failure ?? firstError ?? new FeedmillError('no_items_found', noItemsMessage(url));
}

/**
 * The source a person's selectors name: the page at `url` itself, read with them. No platform
 * rule, advertised feed or well-known path is looked at: with selectors given, they decide. Under
 * `render: auto` with a browser at hand, selectors that match nothing in the page as served are
 * tried on the page rendered (a list a script builds), and the feed's refreshes then render it too.
 * @throws FeedmillError the fetch's failure, or `no_items_found` when the selectors match nothing
 */
export async function readSelectedPage(
  deps: DiscoverDeps,
  url: string,
  selectors: PageSelectors,
  options: ReadOptions = {},
): Promise<ResolvedSource> {
  const read = async (rendered: boolean): Promise<ResolvedSource> => {
    const readAs = { reader: 'page' as const, ...(rendered ? { rendered } : {}) };
    const document = await fetchDocument(deps, url, {}, readAs, { ...options, selectors });
    // Nothing was read before, so there is no validator or hash for the answer to match.
    if (document.kind !== 'parsed') throw new Error(`Expected a first read of ${url} to be parsed, got ${document.kind}`);
    return { ...document, ...readAs, followed: { url: document.fetched.url, source: 'page' } };
  };
  try {
    return await read(false);
  } catch (error) {
    if (!isFeedmillError(error) || error.code !== 'no_items_found') throw error;
    if (!rendersWhenServedListsNothing(deps, options.render ?? 'auto'))
      throw new FeedmillError('no_items_found', `${error.message}${renderAdvice(deps, options.render)}`, error.details);
    // What the page as served said is the answer when the rendered page names nothing either, or
    // when no browser could start after all; a failure of the rendering itself is its own answer.
    return read(true).catch((again: unknown) => {
      throw isFeedmillError(again) && (again.code === 'no_items_found' || again.code === 'render_unavailable') ? error : again;
    });
  }
}

/** What a page looks like to a create: as served, or as rendered when a create would render it. */
export interface ReadablePage {
  fetched: FetchResult & { status: 200 };
  /** Set when a create would read the page rendered (`render: always`, or `auto` and only the rendered page lists items). */
  rendered?: FetchResult & { status: 200 };
}

/**
 * The page at `url` as a create with `options.render` would read it, whatever its heuristics find:
 * the dashboard's picker shows it so a person can point at the items. Rendered under `always`, or
 * by `rendersWhenServedListsNothing` when the page as served lists nothing — and then kept
 * rendered even when the heuristics find nothing there either: the person's selectors are for
 * exactly that page.
 * @throws FeedmillError the fetch's or the browser's failure; `validation_failed` on `url` when the address is a feed, not a page
 */
export async function readablePage(deps: DiscoverDeps, url: URL, options: ReadOptions = {}): Promise<ReadablePage> {
  const fetched = await deps.fetcher.fetch({ url: url.href, ...(options.access ? { access: options.access } : {}) });
  if (fetched.status !== 200)
    throw new FeedmillError('source_unreachable', `The source at ${url.href} answered without a document; check the address`);
  if (!looksLikeHtml(fetched)) {
    throw new FeedmillError(
      'validation_failed',
      `Expected \`url\` to be the address of a web page, got a feed (${fetched.url}): add it as it is, without selectors`,
      { field: 'url' },
    );
  }
  const render = options.render ?? 'auto';
  const listsItems = async (): Promise<boolean> => {
    const meta = { url: fetched.url, contentType: fetched.contentType, contentLocation: fetched.contentLocation };
    try {
      return (await deps.parser.extractPage(fetched.body, meta)).items.length > 0;
    } catch (error) {
      if (isFeedmillError(error) && error.code === 'no_items_found') return false;
      throw error;
    }
  };
  if (render === 'always' || (rendersWhenServedListsNothing(deps, render) && !(await listsItems()))) {
    const document = { body: fetched.body, ...(fetched.contentType ? { contentType: fetched.contentType } : {}) };
    return { fetched, rendered: await renderPage(deps, { url: fetched.url, document }) };
  }
  return { fetched };
}
