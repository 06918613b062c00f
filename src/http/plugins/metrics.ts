import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps.js';

/**
 * Request histograms by route pattern (never the raw URL: ids would explode the label set), and
 * the exposition at /metrics for Prometheus. Unmatched requests count under `unmatched`.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppDeps['metrics']): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { config: { rateLimit: false }, schema: { hide: true } }, async (_request, reply) => {
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).send(body);
  });
}
