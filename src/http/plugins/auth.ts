import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireScope, type Authenticator } from '../../app/authenticate.js';
import type { Principal, Scope } from '../../domain/api-key.js';
import { FeedmillError } from '../../domain/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The scope a route needs; routes without one are public (hosted feeds, health). */
    scope?: Scope;
    /**
     * For a route that authenticates on its own (`/graphql`, per operation): credentials that are
     * present and valid still name the caller here, so the rate limit counts against the key.
     */
    identify?: boolean;
  }
}

/**
 * Authenticates every route that declares a `scope`, before its body is read: a caller without
 * valid credentials learns nothing about the route beyond 401 (spec "Authentication" 4 and 5).
 */
export function registerAuth(app: FastifyInstance, authenticate: Authenticator): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const { scope, identify } = request.routeOptions.config;
    if (!scope && identify && request.headers.authorization) {
      // Bad credentials are the route's own error to report; here they only leave the caller unnamed.
      request.principal = await authenticate(request.headers.authorization).catch(() => null);
      return;
    }
    if (!scope) return;
    request.principal = await authenticate(request.headers.authorization);
    requireScope(request.principal, scope);
  });
}

/** The authenticated caller of a route that declares a scope. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new FeedmillError('unauthorized', 'This route needs an API key');
  return request.principal;
}
