import { createServer, type Server } from 'node:http';
import type { Metrics } from '../ports/metrics.js';

/**
 * A small plain-HTTP listener for probes and scrapes inside a pod (every role, the worker included,
 * which has no API): `/healthz`, `/readyz`, `/metrics`. Plain HTTP because it carries no user data
 * and should not be exposed outside the cluster network.
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  metrics: Pick<Metrics, 'render'>;
  ready: () => Promise<boolean>;
  /** More of what `/readyz` reports (rendering); never part of whether the process is ready. */
  details?: () => Record<string, unknown>;
}): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    // Plain HTTP, so no HSTS; but nothing here is ever to be sniffed into HTML (src/http security headers).
    response.setHeader('x-content-type-options', 'nosniff');
    const json = (status: number, body: unknown): void =>
      void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/healthz') return json(200, { status: 'ok' });
    if (path === '/readyz') {
      options.ready().then(
        (ready) => json(ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', ...options.details?.() }),
        () => json(503, { status: 'not_ready', ...options.details?.() }),
      );
      return undefined;
    }
    if (path === '/metrics') {
      options.metrics.render().then(
        ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
        () => json(500, { status: 'metrics_failed' }),
      );
      return undefined;
    }
    return json(404, { status: 'not_found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
