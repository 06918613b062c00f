import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `__Host-`: the browser accepts the cookie only with Secure, Path=/ and no Domain, so no other
 * host (a sibling subdomain) can plant or read it. HttpOnly keeps it from scripts; SameSite=Lax
 * keeps it off cross-site posts while a link from elsewhere still lands signed in.
 */
export const sessionCookie = '__Host-feedmill-session';

export function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.setCookie(sessionCookie, token, { path: '/', httpOnly: true, secure: true, sameSite: 'lax', maxAge: maxAgeSeconds });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(sessionCookie, { path: '/', httpOnly: true, secure: true, sameSite: 'lax' });
}

/**
 * The token a signed-in page's forms carry: an HMAC of the session id under the installation's
 * secret key, so it needs no storage and is worthless without the session cookie beside it.
 */
export function csrfTokenOf(secretKey: Buffer, sessionId: string): string {
  return createHmac('sha256', secretKey).update(`dashboard-csrf:${sessionId}`).digest('base64url');
}

export function csrfTokenMatches(secretKey: Buffer, sessionId: string, sent: string): boolean {
  const expected = Buffer.from(csrfTokenOf(secretKey, sessionId));
  const actual = Buffer.from(sent);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * OWASP's "verifying origin with standard headers": a state-changing request must name our own
 * origin in `Origin` (every current browser sends it on a POST). Checked before the body is read,
 * and for sign-in too, where there is no session yet to bind a token to.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return origin !== undefined && origin === `${request.protocol}://${request.host}`;
}

/** Only a path of our own is a place to return to after signing in: never another site. */
export function safeNext(next: string | undefined): string {
  return next && /^\/dashboard\/[^\\]*$/.test(next) && !next.startsWith('//') ? next : '/dashboard/feeds';
}
