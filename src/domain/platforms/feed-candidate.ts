import type { FeedFormat, PageExtractor } from './platform-rule.js';

/**
 * Where a candidate was found: `rule` (a platform rule), `advertised` (the page names it: a
 * `<link rel="alternate">` of a feed type, or an `<a>` to a feed), `well-known` (a common feed path of
 * the site answered with a feed), `page` (the page's own items, extracted), `direct` (the address given
 * is itself a feed).
 */
export type CandidateSource = 'rule' | 'advertised' | 'well-known' | 'page' | 'direct';
export const candidateSources: readonly CandidateSource[] = ['rule', 'advertised', 'well-known', 'page', 'direct'];

/** A feed a pasted address could become, best first in a discovery. */
export interface FeedCandidate {
  url: string;
  /** The document's own title once fetched, else the title the page gave its link; null when neither is known. */
  title: string | null;
  format: FeedFormat;
  source: CandidateSource;
  /** The platform of the rule that produced it. */
  platform?: string;
  /** Fetched and read within the discovery's budget; a rule candidate is listed unconfirmed when it could not be. */
  confirmed: boolean;
  /** With `format: 'page'` from a rule: the built-in extractor that reads it. */
  extractor?: PageExtractor;
}

/** Which candidate a feed created from an address follows (absent when the address itself was a feed). */
export interface FollowedCandidate {
  url: string;
  source: Exclude<CandidateSource, 'direct'>;
  platform?: string;
}
