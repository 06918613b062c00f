const hasScheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
// A stand-in base for resolving one relative reference against another (xml:base="/a/" with no
// document URL): the result is stripped of it again, so the output stays relative.
const placeholderOrigin = 'http://feedmill.invalid';

/**
 * `reference` resolved against `base` (RFC 3986 §5). An absolute reference is returned as written,
 * so feed URLs keep their exact spelling; without a usable base a relative reference stays relative.
 */
export function resolveUrl(reference: string, base: string | undefined): string {
  const trimmed = reference.trim();
  if (trimmed === '' || hasScheme.test(trimmed) || !base) return trimmed;
  try {
    if (hasScheme.test(base)) return new URL(trimmed, base).href;
    const resolved = new URL(trimmed, new URL(base, `${placeholderOrigin}/`));
    if (resolved.origin !== placeholderOrigin) return resolved.href;
    return resolved.href.slice(placeholderOrigin.length);
  } catch {
    return trimmed;
  }
}
