import { fieldRefusal } from './errors.js';
import { noFilters, type KeepBlock } from './keep-block.js';
import { expectedMessage, oneOf } from './field-message.js';
import type { FollowedCandidate } from './platforms/feed-candidate.js';
import type { PageExtractor } from './platforms/platform-rule.js';
import type { FullTextRules } from './full-text-rules.js';
import type { FetchOptionsSummary } from './fetch-options.js';
import type { PageSelectors } from './page-selectors.js';
import type { RenderMode } from './render-mode.js';

export type ItemSort = 'last_added' | 'date';
export const itemSorts: readonly ItemSort[] = ['last_added', 'date'];

/** A sort named by a person or a client; anything else is refused with what was expected. */
export function parseItemSort(text: string): ItemSort {
  const sort = itemSorts.find((name) => name === text);
  if (!sort) throw fieldRefusal('sort', expectedMessage('sort', oneOf(itemSorts), { value: text }));
  return sort;
}

/**
 * Spec "Feed settings", plus `sort` (the dashboard preference used when a request gives none),
 * `paused` (polling stopped by its owner), `minIntervalSeconds` (this feed's own floor, never
 * below the global one), `filters` (keep/block: what they drop is shown nowhere) and full text.
 */
export interface FeedSettings {
  customAuthor: string | null;
  sort: ItemSort;
  paused: boolean;
  minIntervalSeconds: number | null;
  filters: KeepBlock;
  /** Fetch each new item's page and show its article (docs/full-text.md). */
  fullText: boolean;
  /** A person's hints for this site's article pages; null: the extractor's own judgement. */
  fullTextRules: FullTextRules | null;
  /** What the source needs beyond its address (docs/fetch-options.md), sealed; null: nothing. */
  fetchOptions: SealedFetchOptions | null;
  /**
   * A person's CSS selectors for the page at `sourceUrl` (docs/selectors.md): when set, they decide
   * the items, and the feed reads that page with them; null: found the way a create finds them.
   */
  selectors: PageSelectors | null;
  /** Whether a page source is rendered in a browser first (docs/rendering.md). */
  render: RenderMode;
}

/**
 * Fetch options at rest: `sealed` is the options' JSON encrypted with the server's secret key
 * (app/fetch-access.ts); beside it, in the clear, only what may be shown.
 */
export interface SealedFetchOptions extends FetchOptionsSummary {
  sealed: string;
}

export const defaultFeedSettings: FeedSettings = {
  customAuthor: null,
  sort: 'last_added',
  paused: false,
  minIntervalSeconds: null,
  filters: noFilters,
  fullText: false,
  fullTextRules: null,
  fetchOptions: null,
  selectors: null,
  render: 'auto',
};

/** Settings as stored: rows written before a field existed lack it and get its default. */
export const feedSettingsOf = (stored: Partial<FeedSettings>): FeedSettings => ({ ...defaultFeedSettings, ...stored });

/** Why a fetch failed: a code of the closed set (domain/errors.ts) and its message for humans. */
export interface FeedError {
  code: string;
  message: string;
}

/** What the last fetch left behind: validators for the next conditional GET and the feed's health. */
export interface FetchState {
  /** How the document is read: a native feed (absent means this) or a web page whose items are extracted. */
  reader?: 'feed' | 'page';
  /** With `reader: 'page'`: the built-in extractor a platform rule named for it, else the heuristics. */
  extractor?: PageExtractor;
  /**
   * With `reader: 'page'`: the page lists its items only once a browser ran its scripts, so each
   * refresh renders it again (unless the feed's `render` is `never`).
   */
  rendered?: boolean;
  /**
   * The candidate the feed was created to follow when the address given was a page (a platform's
   * feed, an advertised one…); absent when the address itself was the feed, and on older feeds.
   */
  followed?: FollowedCandidate;
  etag?: string;
  lastModified?: string;
  /** sha-256 of the last body parsed: an unchanged body never reaches the parser pool again. */
  bodyHash?: string;
  lastFetchedAt?: string;
  /** When a fetch last succeeded (changed, unchanged or not modified); absent until one has. */
  lastSuccessAt?: string;
  nextFetchAt?: string;
  /**
   * `changed`, `unchanged`, `not_modified`, or the error code of the last failure. States written
   * before `unchanged` was told apart hold `ok` (see feedHealth).
   */
  lastStatus?: string;
  /** The failure of the last fetch; null (or absent, on older rows) once a fetch succeeds. */
  lastError?: FeedError | null;
  /** Failures in a row; a success resets it. */
  errorCount: number;
  /** When the current run of failures began; absent while the feed succeeds. */
  failingSince?: string;
  /**
   * Set when the feed failed for longer than the disable threshold: it is polled no more until its
   * owner resumes it (`paused: false`) or a refresh on demand succeeds.
   */
  disabled?: { at: string; reason: string };
  /** Successive refreshes that found nothing new; the poll policy backs off with it. */
  unchangedStreak: number;
}

export interface Feed {
  id: string;
  accountId: string;
  title: string;
  description: string;
  icon: string;
  /** Spec `source_url`: the address the feed was created from. */
  sourceUrl: string;
  /** The address the document is actually fetched from (after redirects). */
  fetchUrl: string;
  /** The site the feed describes (RSS channel link). */
  link: string;
  createdAt: string;
  updatedAt: string;
  settings: FeedSettings;
  fetch: FetchState;
}

/** Fields a user may change with PATCH /v1/feeds/:id. */
export interface FeedPatch {
  title?: string;
  description?: string;
  icon?: string;
}
