import type { FastifyInstance } from 'fastify';

export interface SecurityHeaderOptions {
  /** `Strict-Transport-Security` max-age in seconds; 0 asks browsers to forget it. */
  hstsMaxAge: number;
}

// HTML (error pages of a proxy aside, none today; the dashboard later) may load only our own
// scripts, styles and images, never inline code, and may not be framed. OWASP Secure Headers.
const htmlPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
// JSON, feeds and other data: nothing in them may run or load anything, even when opened in a tab.
const dataPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * Headers on every response, errors and hosted feeds included: `nosniff` (a feed or a JSON body is
 * never taken for HTML or script), no referrer leaving us (HTML pages name their origin to themselves only), a Content-Security-Policy (strict for
 * HTML, `default-src 'none'` for everything else) and, over HTTPS only (RFC 6797 §7.2),
 * `Strict-Transport-Security`.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const hsts = `max-age=${options.hstsMaxAge}`;
  app.addHook('onSend', async (request, reply, payload) => {
    const isHtml = /^\s*(text\/html|application\/xhtml\+xml)/i.test(String(reply.getHeader('content-type') ?? ''));
    void reply
      .header('x-content-type-options', 'nosniff')
      // A page keeps its origin for its own forms: under `no-referrer` a browser sends `Origin: null`
      // with every post, and the dashboard's origin check could not tell our forms from anyone's.
      .header('referrer-policy', isHtml ? 'same-origin' : 'no-referrer')
      .header('content-security-policy', isHtml ? htmlPolicy : dataPolicy);
    if (request.protocol === 'https') void reply.header('strict-transport-security', hsts);
    return payload;
  });
}
