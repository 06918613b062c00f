import { setMaxListeners } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type execute, type GraphQLSchema, type subscribe } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { AppDeps } from '../app/deps.js';
import { isFeedmillError } from '../domain/errors.js';
import { asValidationError } from '../graphql/errors.js';
import { createGraphqlServer, type GraphqlServer, type GraphqlServerOptions } from '../graphql/yoga.js';

export type GraphqlMountOptions = Omit<GraphqlServerOptions, 'closing' | 'endpoint'>;

export interface GraphqlMount {
  readonly yoga: GraphqlServer;
  /** Ends live subscriptions (SSE and WebSocket) and closes WebSocket clients; `app.close()` calls it too. */
  close(): Promise<void>;
}

/** The connection's `Authorization`, under either spelling clients use in `connectionParams`. */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const value = params?.Authorization ?? params?.authorization;
  return typeof value === 'string' ? value : undefined;
}

/**
 * What this file uses of yoga's enveloped pipeline. envelop types most of it as `any` (its types
 * depend on the plugins), so it is named here once, in graphql's own types.
 */
interface Enveloped {
  schema: GraphQLSchema;
  parse(source: string): DocumentNode;
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
  contextFactory(): Promise<unknown>;
  execute: typeof execute;
  subscribe: typeof subscribe;
}

/**
 * `/graphql` on the Fastify app: GET, POST and OPTIONS through yoga (SSE subscriptions included,
 * on the same route), and `graphql-ws` WebSockets on the same path. The WebSocket side runs yoga's
 * envelop pipeline, so authentication, scopes, depth and cost limits and error codes are the same.
 */
export function mountGraphql(app: FastifyInstance, deps: AppDeps, options: GraphqlMountOptions = {}): GraphqlMount {
  const shutdown = new AbortController();
  // Every live subscription listens for shutdown; the default cap of 10 listeners would warn.
  setMaxListeners(0, shutdown.signal);
  // One authenticator per app: a failure throttle split between REST and GraphQL would double the guesses.
  const { authenticate } = app;
  const yoga = createGraphqlServer(deps, { ...options, closing: shutdown.signal, authenticate });

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    // Named by its key before the rate limit counts the request; yoga authenticates each operation.
    config: { identify: true },
    handler: async (request, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(request, reply, { authentication: request.authentication ?? undefined, client: request.ip });
      for (const [name, value] of response.headers) void reply.header(name, value);
      return reply.status(response.status).send(response.body);
    },
  });

  const wss = new WebSocketServer({ noServer: true });
  const sockets = useServer<Record<string, unknown>, { authorization: string; client: string }>(
    {
      // Credentials are checked once when the connection opens (4401 closes it), and again for
      // each operation by yoga's context, so a key revoked meanwhile stops working at once.
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx.connectionParams);
        const client = app.clientAddress(ctx.extra.request);
        try {
          await authenticate(authorization, client);
        } catch (error) {
          if (!isFeedmillError(error)) throw error;
          // A WebSocket close reason holds at most 123 bytes, so the long message stays out; one
          // reason for every failure, as over HTTP.
          if (error.code === 'rate_limited') ctx.extra.socket.close(4429, `Too many failed authentications; retry in ${error.details.retryAfter ?? 1} s`);
          else ctx.extra.socket.close(4401, 'Unauthorized: send connectionParams.Authorization as Bearer KEY:SECRET');
          return false;
        }
        ctx.extra.authorization = authorization;
        ctx.extra.client = client;
        return true;
      },
      onSubscribe: async (ctx, _id, payload: SubscribePayload) => {
        const enveloped = yoga.getEnveloped({ authorization: ctx.extra.authorization, client: ctx.extra.client }) as Enveloped;
        let document;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          if (!(error instanceof GraphQLError)) throw error;
          return [asValidationError(error)];
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return [...errors];
        let contextValue;
        try {
          contextValue = await enveloped.contextFactory();
        } catch (error) {
          // yoga's context throws coded GraphQLErrors (unauthorized); returned, they reach the client.
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
          rootValue: enveloped,
        };
        return args;
      },
      // The enveloped execute/subscribe run the plugins (scopes, masked errors) for this operation.
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
    },
    wss,
  );

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== yoga.graphqlEndpoint) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  app.server.on('upgrade', onUpgrade);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      shutdown.abort();
      app.server.off('upgrade', onUpgrade);
      // Closes every client with 1001 "Going away" and then the WebSocket server.
      await sockets.dispose();
    })());
  // Open SSE streams and sockets would otherwise keep `app.close()` waiting for ever.
  app.addHook('preClose', close);
  return { yoga, close };
}
