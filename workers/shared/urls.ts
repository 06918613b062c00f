import { safeUrl } from '../../src/domain/safe-url.js';
import { detached } from './detach.js';

const hasScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
// A stand-in base for resolving one relative reference against another (xml:base="/a/" with no
// document URL): the result is stripped of it again, so the output stays relative.
const placeholderOrigin = 'http://feedmill.invalid';

/**
 * A path-absolute reference (`/img/1.jpg?w=2#top`) made only of characters the WHATWG URL parser
 * keeps as they are in a path, query and fragment of an http(s) URL: joined to the base's origin it
 * is exactly what `new URL` would give. Items link this way by the thousand, and the join costs
 * nothing. Dot segments (`/.`) and everything else take the parser.
 */
const plainAbsolutePath = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@%/?#]*$/;
let cachedBase = '';
let cachedOrigin: string | undefined;

/** `scheme://host[:port]` of an http(s) base without credentials (one-entry cache: a feed has one base). */
function originOf(base: string): string | undefined {
  if (base !== cachedBase) {
    // A copy: `base` may be an xml:base read from the document, and a view would keep it alive.
    cachedBase = detached(base);
    cachedOrigin = undefined;
    if (URL.canParse(base)) {
      const url = new URL(base);
      const plain = (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
      if (plain) cachedOrigin = url.origin;
    }
  }
  return cachedOrigin;
}

/**
 * `reference` resolved against `base` (RFC 3986 §5). An absolute reference is returned as written,
 * so feed URLs keep their exact spelling; without a usable base a relative reference stays relative.
 */
export function resolveUrl(reference: string, base: string | undefined): string {
  const trimmed = reference.trim();
  if (trimmed === '' || hasScheme.test(trimmed) || !base) return trimmed;
  if (plainAbsolutePath.test(trimmed) && !trimmed.includes('/.')) {
    const origin = originOf(base);
    if (origin !== undefined) return origin + trimmed;
  }
  try {
    if (hasScheme.test(base)) return new URL(trimmed, base).href;
    const resolved = new URL(trimmed, new URL(base, `${placeholderOrigin}/`));
    if (resolved.origin !== placeholderOrigin) return resolved.href;
    return resolved.href.slice(placeholderOrigin.length);
  } catch {
    return trimmed;
  }
}

/**
 * The base a document sets for what an element holds (xml:base, CDF's BASE): `reference` resolved
 * against the base around it. An empty one is that base, as an empty reference resolves to its
 * base (RFC 3986 §5.2.2): the document's own address at the top. Taken as written, the empty
 * string left every relative link inside unresolved, and so empty.
 */
export function nestedBase(reference: string, parent: string | undefined): string | undefined {
  return reference.trim() === '' ? parent : resolveUrl(reference, parent);
}

/**
 * A URL field of a parsed feed: `reference` resolved against `base` when the result is a web
 * address feedmill lets out (safeUrl, the one rule), else ''.
 */
export function webUrl(reference: string, base: string | undefined): string {
  return safeUrl(resolveUrl(reference, base)) ?? '';
}
