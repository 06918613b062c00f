import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app/deps.js';
import { loadAssets } from './assets.js';
import { dashboardRoutes } from './plugin.js';

/**
 * Mounts the dashboard at `/dashboard` on the HTTP app that serves REST, as src/main mounts GraphQL:
 * the dashboard is a client of the same use cases, and people arriving at `/` land on it.
 */
export async function mountDashboard(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(dashboardRoutes, { prefix: '/dashboard', deps, assets: loadAssets() });
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/feeds', 303));
}
