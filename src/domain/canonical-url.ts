import { identityUrl } from './item-identity.js';

/**
 * Query parameters that tag a link for analytics or select its AMP rendering, beyond those an
 * item's identity already drops (item-identity.ts keeps its list as it is: stored keys depend on it).
 */
const untracked = /^(dclid|msclkid|yclid|igshid|_ga|_gl|ocid|cmpid|ncid|sr_share|__twitter_impression|amp|outputtype)$/i;

/** Host prefixes naming the same site: `www.` and the AMP subdomain (`amp.theguardian.com`). */
const samePrefix = /^(www\d?|amp)\./;

/** Google's AMP cache serves `https://example-com.cdn.ampproject.org/c/s/example.com/path`. */
const ampCache = /\.cdn\.ampproject\.org$/;

/**
 * The address two links to one article share, used to find it reached through two feeds:
 * `identityUrl` (tracking parameters and fragment gone), then scheme, `www.`, AMP variants
 * (`amp.` host, the AMP cache, a leading or trailing `/amp` segment, `.amp.html`, `?amp=1`, `?outputType=amp`)
 * and the trailing slash set aside, the remaining query sorted. It is a comparison key, never shown:
 * `//example.com/news/story?id=7`. A string that is no URL is only trimmed.
 */
export function canonicalUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(identityUrl(url));
  } catch {
    return url.trim();
  }
  if (ampCache.test(parsed.hostname)) {
    const inner = /^\/c\/(?:s\/)?(.+)$/.exec(parsed.pathname);
    if (inner?.[1] !== undefined) return canonicalUrl(`https://${inner[1]}${parsed.search}`);
  }
  const host = parsed.host.replace(samePrefix, '');
  const path = parsed.pathname
    .replace(/^\/amp\//i, '/')
    .replace(/\/amp\/?$/i, '')
    .replace(/\.amp(\.html?)?$/i, '$1')
    .replace(/\/+$/, '');
  // Split by hand: URLSearchParams re-encodes what it keeps, and the same link must stay equal.
  const pairs = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !untracked.test(pair.split('=')[0] ?? ''))
    .sort();
  return `//${host}${path}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`;
}
