import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app/deps.js';
import type { GraphqlMountOptions } from './mount.js';
import { routeGraphql } from './route.js';

/**
 * `/graphql` built on its first request: what serves GraphQL (graphql, yoga, Pothos, the schema,
 * graphql-ws and ws) is ~24 MB resident, which an API nobody asks GraphQL never holds
 * (bench/README.md, "idle"). The first request waits for it, a few hundred milliseconds, once.
 */
export function mountGraphqlOnDemand(app: FastifyInstance, deps: AppDeps, options: GraphqlMountOptions = {}): void {
  routeGraphql(app, async () => (await import('./mount.js')).graphqlHandlers(app, deps, options));
}
