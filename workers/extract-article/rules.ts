import type { FullTextRules } from '../../src/domain/full-text-rules.js';
import { siteRules, type SiteRule } from './site-rules.js';

/**
 * The rule for a page: the feed's own when it states one, else the shipped rule whose domain is the
 * page's host or a parent of it (the longest such domain, so `news.example.com` beats `example.com`).
 */
export function ruleFor(pageUrl: string, own: FullTextRules | undefined): SiteRule | undefined {
  if (own !== undefined && (own.content !== undefined || (own.remove?.length ?? 0) > 0)) return own;
  const host = hostOf(pageUrl);
  if (host === undefined) return undefined;
  for (let domain = host; domain.includes('.'); domain = domain.slice(domain.indexOf('.') + 1)) {
    // Own keys only: a host named like an Object.prototype member must not find one.
    if (Object.hasOwn(siteRules, domain)) return siteRules[domain];
  }
  return undefined;
}

function hostOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const host = new URL(url).hostname.toLowerCase();
  return host.endsWith('.') ? host.slice(0, -1) : host;
}
