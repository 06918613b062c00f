import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps.js';

/**
 * Request histograms by route pattern (never the raw URL: ids would explode the label set).
 * Unmatched requests count under `unmatched`. The exposition itself is served only on the
 * metrics port (src/main/metrics-server.ts), never on the public HTTPS port: it tells anyone who
 * asks the routes, the traffic and the queue depths.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppDeps['metrics']): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}
