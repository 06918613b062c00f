import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireScope, unauthorized, type Authenticator } from '../../app/authenticate.js';
import type { Principal, Scope } from '../../domain/api-key.js';
import { clientAddressOf, type TrustFunction } from '../trust-proxy.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The app's one authenticator: REST, GraphQL over HTTP and SSE, and the WebSocket upgrade share
     * its failure throttle and its cache of proven secrets.
     */
    authenticate: Authenticator;
    /** The client's address of a raw request (a WebSocket upgrade), by the app's proxy trust. */
    clientAddress(raw: IncomingMessage): string;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * For a route with `identify`: the outcome of checking its credentials, so the route reuses it
     * instead of hashing the secret (and counting a failure) a second time.
     */
    authentication: Promise<Principal> | null;
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
export function registerAuth(app: FastifyInstance, authenticate: Authenticator, trust: TrustFunction): void {
  app.decorate('authenticate', authenticate);
  app.decorate('clientAddress', (raw: IncomingMessage) => clientAddressOf(raw, trust));
  app.decorateRequest('principal', null);
  app.decorateRequest('authentication', null);
  app.addHook('onRequest', async (request) => {
    const { scope, identify } = request.routeOptions.config;
    if (!scope && identify && request.headers.authorization) {
      // Bad credentials are the route's own error to report; here they only leave the caller unnamed.
      request.authentication = authenticate(request.headers.authorization, request.ip);
      request.principal = await request.authentication.catch(() => null);
      return;
    }
    if (!scope) return;
    request.principal = await authenticate(request.headers.authorization, request.ip);
    requireScope(request.principal, scope);
  });
}

/** The authenticated caller of a route that declares a scope. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
