/**
 * Platform rules: knowledge of which page of which platform has which feed of its own, as data
 * (`{ match, produce }` rows). The built-in table and an operator's file (`FEEDMILL_PLATFORM_RULES`)
 * have this one shape; `readPlatformRules` checks it.
 */

import type { NativeFeedFormat } from '../item.js';

/** What a feed candidate is: a native feed's format, or `page` when its items are extracted from a page. */
export type FeedFormat = NativeFeedFormat | 'page';
export const feedFormats: readonly FeedFormat[] = ['rss', 'atom', 'rdf', 'json_feed', 'page'];

/**
 * Steps that need the page (or the platform) to produce a feed address, built in rather than carried
 * by a rule as code: `youtube-handle` reads the channel id (`{channel_id}`) from an `@handle` page;
 * `activitypub` confirms the host is a fediverse server (its NodeInfo) before the feed is offered.
 */
export type PlatformResolver = 'youtube-handle' | 'activitypub';
export const platformResolvers: readonly PlatformResolver[] = ['youtube-handle', 'activitypub'];

/** The template variables each resolver adds to the pattern's groups. */
export const resolverVariables: Record<PlatformResolver, readonly string[]> = {
  'youtube-handle': ['channel_id'],
  activitypub: [],
};

/** Built-in page extractors (workers/extractors/): a page whose structure is known, read as a feed. */
export type PageExtractor = 'telegram-channel';
export const pageExtractors: readonly PageExtractor[] = ['telegram-channel'];

/** The URLPattern components a rule may constrain; an absent one matches anything. */
export const patternParts = ['protocol', 'hostname', 'port', 'pathname', 'search'] as const;
export type PatternPart = (typeof patternParts)[number];

/** One feed a matching page has. */
export interface FeedTemplate {
  /**
   * The feed's address: `{name}` is a named group of the pattern (`:name`), a resolver's variable, or
   * `{origin}` (the page's scheme, host and port).
   * @example '{origin}/{owner}/{repo}/releases.atom'
   */
  url: string;
  /** The format the platform serves there, said before any fetch confirms it. @default 'rss' */
  format?: FeedFormat;
  resolver?: PlatformResolver;
  /** With `format: 'page'`: the built-in extractor that reads the page. */
  extractor?: PageExtractor;
}

export interface PlatformRule {
  /** Unique, kebab-case; named by every message about the rule. @example 'github-releases' */
  name: string;
  /** Shown to the person with each candidate. @example 'GitHub' */
  platform: string;
  /** URLPattern components (https://urlpattern.spec.whatwg.org/), e.g. `{ "hostname": "github.com", "pathname": "/:owner/:repo" }`. */
  match: Partial<Record<PatternPart, string>>;
  /** The page's feeds, best first. */
  produce: FeedTemplate[];
}
