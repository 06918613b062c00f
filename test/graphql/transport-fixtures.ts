import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createClient, type Client } from 'graphql-ws';
import { generate } from 'selfsigned';
import { Agent, request } from 'undici';
import WebSocket from 'ws';
import type { AppDeps } from '../../src/app/deps.js';
import { buildHttpApp, type HttpAppOptions } from '../../src/http/app.js';
import { mountGraphql, type GraphqlMount, type GraphqlMountOptions } from '../../src/graphql/mount.js';

export interface GraphqlHttps {
  readonly app: FastifyInstance;
  readonly mount: GraphqlMount;
  /** `https://127.0.0.1:<port>/graphql` */
  readonly httpUrl: string;
  /** `wss://127.0.0.1:<port>/graphql` */
  readonly wsUrl: string;
  /** The self-signed certificate the server presents, for clients to trust. */
  readonly ca: string;
  close(): Promise<void>;
}

/** The real HTTPS app with `/graphql` mounted, on 127.0.0.1 and a free port. */
export async function startGraphqlHttps(
  deps: AppDeps,
  options: { rateLimit?: HttpAppOptions['rateLimit']; mount?: GraphqlMountOptions } = {},
): Promise<GraphqlHttps> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const app = await buildHttpApp(deps, {
    https: { key: pems.private, cert: pems.cert },
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });
  const mount = mountGraphql(app, deps, options.mount);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    mount,
    httpUrl: `https://127.0.0.1:${port}/graphql`,
    wsUrl: `wss://127.0.0.1:${port}/graphql`,
    ca: pems.cert,
    close: async () => {
      await mount.close();
      await app.close();
    },
  };
}

/** A `graphql-ws` client over the `ws` package that trusts only the test server's certificate. */
export function wsClient(server: GraphqlHttps, connectionParams: Record<string, string>): Client {
  const { ca } = server;
  class TrustingWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { ca });
    }
  }
  return createClient({ url: server.wsUrl, webSocketImpl: TrustingWebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

/**
 * A WebSocket subscription through a real graphql-ws client. graphql-ws reports a refused operation
 * (validation) through `error` with the GraphQL errors: those arrive as a result with `errors`.
 */
export function subscribeWs<T extends { errors?: unknown }>(
  server: GraphqlHttps,
  authorization: string,
  query: string,
  variables: Record<string, unknown> = {},
): { results: Collected<T>; close: () => Promise<void> } {
  const client = wsClient(server, { Authorization: authorization });
  const results = collect<T>((sink) =>
    client.subscribe(
      { query, variables },
      {
        next: (value) => sink.next(value as T),
        complete: () => sink.complete(),
        // graphql-ws types a refusal as an array of GraphQLError; ours are the same shape as JSON.
        error: (error) => (Array.isArray(error) ? sink.next({ errors: error } as T) : sink.error(error)),
      },
    ),
  );
  return {
    results,
    close: async () => {
      results.stop();
      await client.dispose();
    },
  };
}

/** Collects what a subscription yields, until `stop()`. */
export interface Collected<T> {
  readonly results: T[];
  /** Resolves with the results once there are at least `count`. */
  next(count?: number): Promise<T[]>;
  stop(): void;
}

export function collect<T>(
  subscribe: (sink: { next(value: T): void; error(error: unknown): void; complete(): void }) => () => void,
): Collected<T> {
  const results: T[] = [];
  const waiters: { count: number; resolve: (values: T[]) => void; reject: (error: unknown) => void }[] = [];
  const settle = (): void => {
    for (const waiter of [...waiters]) {
      if (results.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve([...results]);
      }
    }
  };
  const stop = subscribe({
    next: (value) => {
      results.push(value);
      settle();
    },
    error: (error) => {
      for (const waiter of waiters.splice(0)) waiter.reject(error);
    },
    complete: () => undefined,
  });
  return {
    results,
    next: (count = results.length + 1) =>
      new Promise<T[]>((resolve, reject) => {
        waiters.push({ count, resolve, reject });
        settle();
      }),
    stop,
  };
}

/** Resolves once the bus has `count` listeners: a subscription is live only when it listens. */
export async function listening(deps: Pick<AppDeps, 'bus'>, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (deps.bus.listenerCount < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} bus listeners, have ${deps.bus.listenerCount}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Resolves once the bus is back to `count` listeners: a closed client's subscription leaves the
 * bus only when the server sees the socket close, a moment later. A test counting listeners must
 * start from there, or an earlier test's leftover listener looks like its own.
 */
export async function drained(deps: Pick<AppDeps, 'bus'>, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (deps.bus.listenerCount > count) {
    if (Date.now() > deadline) throw new Error(`expected the bus back to ${count} listeners, have ${deps.bus.listenerCount}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One SSE event: its `event:` name and parsed `data:`. */
export interface SseEvent {
  event: string;
  data: unknown;
}

/** Opens a subscription over SSE (POST, `accept: text/event-stream`) with undici, as any HTTP client would. */
export async function sseSubscribe(
  server: GraphqlHttps,
  authorization: string | undefined,
  query: string,
): Promise<{ status: number; events: Collected<SseEvent>; close: () => Promise<void> }> {
  const dispatcher = new Agent({ connect: { ca: server.ca } });
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await request(server.httpUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query }),
    dispatcher,
    signal: abort.signal,
  });
  const events = collect<SseEvent>((sink) => {
    let buffer = '';
    response.body.setEncoding('utf8');
    response.body.on('data', (chunk: string) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map(
          block
            .split('\n')
            .filter((line) => !line.startsWith(':'))
            .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
        );
        const data = fields.get('data');
        if (fields.has('event') || data !== undefined)
          sink.next({ event: fields.get('event') ?? 'message', data: data ? JSON.parse(data) : undefined });
      }
    });
    response.body.on('error', () => undefined);
    return () => abort.abort();
  });
  return {
    status: response.statusCode,
    events,
    // Idempotent, so a test may close a stream early and still leave it to its teardown.
    close: async () => {
      if (abort.signal.aborted) return;
      abort.abort();
      await dispatcher.close();
    },
  };
}

export type Opened = { socket: WebSocket; code?: undefined } | { code: number; reason: string };

/** A raw `graphql-transport-ws` socket: resolves once acknowledged, or with the code it was closed with. */
export function openWebSocket(target: GraphqlHttps, authorization: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(target.wsUrl, 'graphql-transport-ws', { ca: target.ca });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: authorization } })));
    socket.on('message', (data: Buffer) => {
      if ((JSON.parse(data.toString()) as { type: string }).type === 'connection_ack') resolve({ socket });
    });
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    socket.on('error', reject);
  });
}
