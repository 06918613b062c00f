import { safeUrl } from '../../src/domain/safe-url.js';

/**
 * `href` resolved against `base`, or null when it is not a web address a reader could open:
 * fragment-only links, and whatever `safeUrl` (the one rule for every URL that leaves feedmill)
 * refuses — javascript:, mailto:, data: and every other scheme, however spelled, and garbage.
 */
export function absoluteUrl(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return null;
  return safeUrl(trimmed, base);
}
