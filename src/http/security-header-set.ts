export interface SecurityHeaderOptions {
  /** `Strict-Transport-Security` max-age in seconds; 0 asks browsers to forget it. */
  hstsMaxAge: number;
  /**
   * Adds `includeSubDomains`: browsers then refuse plain HTTP to every subdomain of this host too,
   * which only the operator knows to be safe.
   * @default false
   */
  hstsIncludeSubDomains?: boolean;
}

/** What a response is, as far as its security headers go. */
export interface ResponseKind {
  /** An HTML (or XHTML) page rather than data. */
  html: boolean;
  /** It leaves over HTTPS (HSTS only then: RFC 6797 §7.2). */
  https: boolean;
}

/** The security headers of one kind of response, by lower-case name. */
export type SecurityHeaders = (kind: ResponseKind) => Record<string, string>;

// HTML (error pages of a proxy aside, none today; the dashboard later) may load only our own
// scripts, styles and images, never inline code, and may not be framed. OWASP Secure Headers.
const htmlPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
// JSON, feeds and other data: nothing in them may run or load anything, even when opened in a tab.
const dataPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The one definition of the headers every response carries, errors and hosted feeds included, and
 * those Node's parser refuses before Fastify sees them: `nosniff` (a feed or a JSON body is never
 * taken for HTML or script), no referrer leaving us (HTML pages name their origin to themselves
 * only), a Content-Security-Policy (strict for HTML, `default-src 'none'` for everything else) and,
 * over HTTPS only, `Strict-Transport-Security`.
 */
export function securityHeaderSet(options: SecurityHeaderOptions): SecurityHeaders {
  const hsts = `max-age=${options.hstsMaxAge}${options.hstsIncludeSubDomains === true ? '; includeSubDomains' : ''}`;
  return ({ html, https }) => ({
    'x-content-type-options': 'nosniff',
    // A page keeps its origin for its own forms: under `no-referrer` a browser sends `Origin: null`
    // with every post, and the dashboard's origin check could not tell our forms from anyone's.
    'referrer-policy': html ? 'same-origin' : 'no-referrer',
    'content-security-policy': html ? htmlPolicy : dataPolicy,
    ...(https ? { 'strict-transport-security': hsts } : {}),
  });
}

/** Is this `Content-Type` an HTML page? */
export const isHtmlType = (contentType: string): boolean => /^\s*(text\/html|application\/xhtml\+xml)/i.test(contentType);
