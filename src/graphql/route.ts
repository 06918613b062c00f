import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const graphqlEndpoint = '/graphql';

/** What serves `/graphql` once routed there: HTTP requests, WebSocket upgrades, and the end (src/graphql/mount.ts). */
export interface RoutedGraphql {
  handle(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends live subscriptions (SSE and WebSocket) and closes WebSocket clients. */
  close(): Promise<void>;
}

/**
 * Routes `/graphql` on `app` — GET, POST and OPTIONS, WebSocket upgrades, and ending its
 * subscriptions when the app closes — to the handlers `load` gives, asked for once, on the first
 * request unless `now`. Nothing of GraphQL is imported here, so `load` may bring it in on first use
 * (src/graphql/mount-on-demand.ts).
 */
export function routeGraphql(app: FastifyInstance, load: () => Promise<RoutedGraphql>, options: { now?: boolean } = {}): void {
  let loading: Promise<RoutedGraphql> | undefined;
  const handlers = (): Promise<RoutedGraphql> => (loading ??= load());
  if (options.now) void handlers();
  app.route({
    url: graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    // Named by its key before the rate limit counts the request; yoga authenticates each operation.
    config: { identify: true },
    handler: async (request, reply) => (await handlers()).handle(request, reply),
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== graphqlEndpoint) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    // The socket holds what the client sends meanwhile: nothing reads it until graphql-ws does.
    handlers().then(
      (served) => served.upgrade(request, socket, head),
      (error: unknown) => {
        app.log.error({ err: error }, 'GraphQL could not be loaded for a WebSocket');
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      },
    );
  };
  app.server.on('upgrade', onUpgrade);
  // Open SSE streams and sockets would otherwise keep `app.close()` waiting for ever.
  app.addHook('preClose', async () => {
    app.server.off('upgrade', onUpgrade);
    if (loading) await (await loading).close();
  });
}
