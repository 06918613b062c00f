import type { FastifyInstance } from 'fastify';
import { FeedmillError } from '../../domain/errors.js';

/**
 * Spec "Authentication" 3: calls over plain HTTP fail. The listener itself is TLS; behind a
 * trusted TLS-terminating proxy, Fastify derives `protocol` from `X-Forwarded-Proto`, so a request
 * the proxy received over plain HTTP is refused here with 403 `https_required`.
 */
export function registerHttpsOnly(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.protocol !== 'https') {
      throw new FeedmillError('https_required', `feedmill accepts HTTPS only; call https://${request.host}${request.url}`);
    }
  });
}
