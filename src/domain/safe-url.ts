import { fieldRefusal } from './errors.js';
import { expectedMessage } from './field-message.js';

/**
 * What a URL is for: a `link` a person follows may also be `mailto:`; anything fetched or shown
 * (an image, an enclosure, an icon, a feed's own address) must be http(s).
 */
export type UrlUse = 'resource' | 'link';

/**
 * An absolute http(s) URL with nothing a URL parser would strip, fold or reinterpret before its
 * scheme: what nearly every feed writes. It is kept as written, so feed URLs keep their exact
 * spelling and the common case costs one regex, not a parse.
 */
// eslint-disable-next-line no-control-regex -- control characters are what must not be inside
const plainWebUrl = /^https?:\/\/[^\x00-\x20\x7f]*$/i;

/**
 * The one rule for every URL feedmill stores, returns or serves (item `url`, `thumbnail`,
 * enclosures, feed `icon` and `link`, every URL attribute of item HTML): `raw` resolved against
 * `base`, when it is an http(s) URL — or a `mailto:` one for a `link` — else null.
 *
 * The scheme is read the way a browser reads it, by the WHATWG URL parser: leading and trailing
 * control characters and spaces dropped, tabs and line breaks inside removed, case folded. So
 * `JaVa&#x09;Script:` (once the markup's entities are decoded), ` javascript:`, `data:image/svg+xml`,
 * `vbscript:`, `file:` and `blob:` are all refused. A relative reference with no usable base is
 * refused too: it would resolve against whatever page shows it.
 *
 * @returns the URL as written when it is already a plain http(s) URL, else as the parser spells it.
 */
export function safeUrl(raw: string, base?: string, use: UrlUse = 'resource'): string | null {
  const value = raw.trim();
  if (value === '') return null;
  // The pattern knows nothing of hosts: `http://`, `https://:80/` and `http://1.2.3.999/` fit it, and
  // no browser can open them. A check of the parser's (no URL object) keeps the path cheap.
  if (plainWebUrl.test(value) && URL.canParse(value)) return value;
  let url: URL;
  try {
    url = base === undefined ? new URL(value) : new URL(value, base);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:' || (use === 'link' && url.protocol === 'mailto:')) return url.href;
  return null;
}

/**
 * A stored URL as it may be shown: what `safeUrl` allows, else ''. Items and icons stored before
 * the rule existed (or by a bug) are checked again on the way out of the API and hosted feeds.
 */
export function shownUrl(url: string): string {
  return url === '' ? '' : (safeUrl(url) ?? '');
}

/**
 * The `icon` a user sets on a feed or bundle: an absolute http(s) URL, or '' for none.
 * @throws FeedmillError `invalid_url` for anything else.
 */
export function userIcon(icon: string): string {
  if (icon.trim() === '') return '';
  const safe = safeUrl(icon);
  if (safe === null) {
    throw fieldRefusal('icon', expectedMessage('icon', 'an absolute http or https URL, or "" for none', { value: icon }), 'invalid_url');
  }
  return safe;
}
