import { createHash } from 'node:crypto';
import type { ParsedItem } from './item.js';

const trackingParam = /^(utm_|fbclid$|gclid$|mc_cid$|mc_eid$)/;

/**
 * The form of a URL used to tell items apart: tracking parameters and the fragment removed, so the
 * same article shared with different `utm_*` tags is one item. Unparsable URLs are kept as given.
 */
export function identityUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.trim();
  }
  parsed.hash = '';
  // Filter the raw query: `searchParams.delete` re-encodes what it keeps (`%20` → `+`, `,` → `%2C`),
  // so a tagged link would no longer match the same link shared without tags.
  const pairs = parsed.search.slice(1).split('&');
  const kept = pairs.filter((pair) => !trackingParam.test([...new URLSearchParams(pair).keys()][0] ?? ''));
  if (kept.length < pairs.length) parsed.search = kept.join('&');
  return parsed.href;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

/**
 * Stable identity of an item within its feed, degrading FreshRSS-style: the guid when the source
 * gives one, else the link, else a hash of what the item says. Refreshing the same document
 * always yields the same keys, so writes are upserts and a retried refresh changes nothing.
 */
export function itemKey(item: ParsedItem): string {
  const guid = item.id?.trim();
  if (guid) return `g:${guid}`;
  if (item.url) return `u:${identityUrl(item.url)}`;
  return `h:${sha256(`${item.title}\n${item.description_html}`)}`;
}

/** Hash of every field a subscriber sees; when it differs from the stored one, the item changed. */
export function contentHash(item: ParsedItem): string {
  return sha256(
    JSON.stringify([
      item.title,
      item.url,
      item.description_html,
      item.thumbnail,
      item.authors.map((author) => author.name),
      item.date_published,
    ]),
  );
}
