import type { FastifyInstance } from 'fastify';
import { isHtmlType, type SecurityHeaders } from '../security-header-set.js';

/** The security headers (security-header-set.ts) on every response Fastify sends. */
export function registerSecurityHeaders(app: FastifyInstance, headersFor: SecurityHeaders): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const html = isHtmlType(String(reply.getHeader('content-type') ?? ''));
    void reply.headers(headersFor({ html, https: request.protocol === 'https' }));
    return payload;
  });
}
