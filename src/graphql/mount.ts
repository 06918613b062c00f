import { setMaxListeners } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type execute, type GraphQLSchema, type subscribe } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppDeps } from '../app/deps.js';
import type { Principal } from '../domain/api-key.js';
import { FeedmillError, isFeedmillError } from '../domain/errors.js';
import { keepAliveMs } from '../web/keep-alive.js';
import { ConnectionSlots } from './connection-slots.js';
import { asValidationError, toGraphqlError } from './errors.js';
import { graphqlEndpoint, routeGraphql, type RoutedGraphql } from './route.js';
import { createGraphqlServer, type GraphqlServer, type GraphqlServerOptions } from './yoga.js';

export type GraphqlMountOptions = Omit<GraphqlServerOptions, 'closing' | 'endpoint'> & {
  /** WebSockets and SSE streams one API key may hold open at once. @default 20 */
  connectionsPerKey?: number;
};

/**
 * graphql-ws's "too many" close code (`CloseCode.TooManyInitialisationRequests`): its clients treat
 * it as final rather than reconnecting at once, which is what a key at its connection cap needs.
 */
const tooManyConnections = 4429;

/** The Accept type under which yoga streams a subscription over HTTP (it refuses others with 406). */
const streaming = /text\/event-stream/;

export interface GraphqlMount {
  readonly yoga: GraphqlServer;
  /** WebSockets and SSE streams the key holds open in this process. */
  connectionsOf(keyId: string): number;
  /** Ends live subscriptions (SSE and WebSocket) and closes WebSocket clients; `app.close()` calls it too. */
  close(): Promise<void>;
}

/** What serves `/graphql`: HTTP through yoga, WebSockets through graphql-ws (routed by route.ts). */
export type GraphqlHandlers = GraphqlMount & RoutedGraphql;

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

/** `/graphql` on the Fastify app, built now: what tests mount. `feedmill api` builds it on first use (mount-on-demand.ts). */
export function mountGraphql(app: FastifyInstance, deps: AppDeps, options: GraphqlMountOptions = {}): GraphqlMount {
  const handlers = graphqlHandlers(app, deps, options);
  routeGraphql(app, async () => handlers, { now: true });
  return handlers;
}

/**
 * GET, POST and OPTIONS through yoga (SSE subscriptions included, on the same route), and
 * `graphql-ws` WebSockets on the same path. The WebSocket side runs yoga's envelop pipeline, so
 * authentication, scopes, depth and cost limits and error codes are the same. `app` is the one
 * `buildHttpApp` made: the authenticator, rate limit and client address are its decorations
 * (src/http/plugins), so both surfaces share one throttle and one request budget. Registers nothing
 * on `app`, so it may be built after the app listens.
 */
export function graphqlHandlers(app: FastifyInstance, deps: AppDeps, options: GraphqlMountOptions = {}): GraphqlHandlers {
  const shutdown = new AbortController();
  // Every live subscription listens for shutdown; the default cap of 10 listeners would warn.
  setMaxListeners(0, shutdown.signal);
  // One authenticator per app: a failure throttle split between REST and GraphQL would double the guesses.
  const { authenticate } = app;
  const { connectionsPerKey, ...serverOptions } = options;
  const yoga = createGraphqlServer(deps, { ...serverOptions, endpoint: graphqlEndpoint, closing: shutdown.signal, authenticate });
  const connections = new ConnectionSlots(connectionsPerKey);

  /** A streaming request holds a connection slot of its key until its response closes, however it ends. */
  const holdStream = (request: FastifyRequest, reply: FastifyReply): void => {
    if (!request.principal || !streaming.test(request.headers.accept ?? '')) return;
    const release = connections.take(request.principal.keyId);
    if (!release) {
      throw new FeedmillError(
        'too_many_connections',
        `Expected at most ${connections.perKey} open GraphQL streams and WebSockets for this key, got one more; close one, or subscribe to several feeds on one connection`,
      );
    }
    reply.raw.once('close', release);
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    holdStream(request, reply);
    const response = await yoga.handleNodeRequestAndResponse(request, reply, {
      authentication: request.authentication ?? undefined,
      client: request.ip,
    });
    for (const [name, value] of response.headers) void reply.header(name, value);
    return reply.status(response.status).send(response.body);
  };

  const wss = new WebSocketServer({ noServer: true });
  const sockets = useServer<Record<string, unknown>, { authorization: string | undefined; client: string; principal: Principal }>(
    {
      // Credentials are checked once when the connection opens (4401 closes it), and again for
      // each operation by yoga's context, so a key revoked meanwhile stops working at once.
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx.connectionParams);
        const client = app.clientAddress(ctx.extra.request);
        const { socket } = ctx.extra;
        let principal;
        try {
          principal = await authenticate(authorization, client);
        } catch (error) {
          if (!isFeedmillError(error)) throw error;
          // A WebSocket close reason holds at most 123 bytes, so the long message stays out; one
          // reason for every failure, as over HTTP.
          if (error.code === 'rate_limited')
            socket.close(4429, `Too many failed authentications; retry in ${error.details.retryAfter ?? 1} s`);
          else socket.close(4401, 'Unauthorized: send connectionParams.Authorization as Bearer KEY:SECRET');
          return false;
        }
        const release = connections.take(principal.keyId);
        if (!release) {
          socket.close(tooManyConnections, `Too many connections: this key may hold ${connections.perKey} at once`);
          return false;
        }
        // 'close' comes however the socket ends, a client killed mid-stream included.
        socket.once('close', release);
        if (socket.readyState !== WebSocket.OPEN) release();
        ctx.extra.authorization = authorization;
        ctx.extra.client = client;
        ctx.extra.principal = principal;
        return true;
      },
      onSubscribe: async (ctx, _id, payload: SubscribePayload) => {
        // Every operation message counts against the key's request budget, as an HTTP request would
        // (graphql-ws refuses operations before onConnect accepted, so the principal is there).
        const limited = ctx.extra.principal && (await app.chargeRateLimit(ctx.extra.principal));
        if (limited) return [toGraphqlError(limited)];
        const enveloped = yoga.getEnveloped({
          authorization: ctx.extra.authorization,
          client: ctx.extra.client,
          connection: ctx.extra.socket,
        }) as Enveloped;
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
    keepAliveMs,
  );

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void =>
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      shutdown.abort();
      // Closes every client with 1001 "Going away" and then the WebSocket server.
      await sockets.dispose();
    })());
  return { yoga, handle, upgrade, close, connectionsOf: (keyId) => connections.countOf(keyId) };
}
