/**
 * `href` resolved against `base`, or null when it is not a web address a reader could open:
 * javascript:, mailto:, data:, fragment-only links and garbage are refused.
 */
export function absoluteUrl(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href;
}

/** The URL with its fragment dropped: two links that differ only there open the same page. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
