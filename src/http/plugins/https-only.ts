import type { FastifyInstance } from 'fastify';
import { FeedmillError } from '../../domain/errors.js';
import type { TrustFunction } from '../trust-proxy.js';

/**
 * Spec "Authentication" 3: calls over plain HTTP fail. The listener itself is TLS; behind a
 * trusted TLS-terminating proxy, Fastify derives `protocol` from `X-Forwarded-Proto`, so a request
 * the proxy received over plain HTTP is refused here with 403 `https_required`. A request from a
 * trusted proxy that does not say how its client connected is refused too: the TLS between the
 * proxy and us says nothing about the client's side.
 */
export function registerHttpsOnly(app: FastifyInstance, trust: TrustFunction): void {
  app.addHook('onRequest', async (request) => {
    const unsaid = request.headers['x-forwarded-proto'] === undefined && trust(request.socket.remoteAddress ?? '', 0);
    if (unsaid) {
      throw new FeedmillError(
        'https_required',
        'feedmill accepts HTTPS only; expected the trusted proxy to say how the client connected in `X-Forwarded-Proto`, got no such header',
      );
    }
    if (request.protocol !== 'https') {
      throw new FeedmillError('https_required', `feedmill accepts HTTPS only; call https://${request.host}${request.url}`);
    }
  });
}
