/**
 * One graphql-ws subscriber of the events benches (`subscribers.ts` and `cluster-child.ts`): its own
 * WebSocket over TLS, subscribed to `feedUpdate`. Both benches count what arrives and what goes wrong
 * the same way, so that their figures can be compared.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { wallNow } from './protocol.js';

/** What graphql-ws constructs for each connection. */
export type WebSocketClass = new (url: string, protocols?: string | string[]) => WebSocket;

/** The bench server's certificate is self-signed, so each client trusts `ca` and nothing else. */
export function webSocketTrusting(ca: string): WebSocketClass {
  return class TrustingWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { ca });
    }
  };
}

export interface FeedUpdateSubscriberOptions {
  /** `wss://…/graphql`. */
  url: string;
  /** From `webSocketTrusting`. */
  webSocketImpl: WebSocketClass;
  authorization: string;
  /** A `feedUpdate` subscription; only `feedUpdate.id` of what it yields is read. */
  query: string;
  /**
   * Characters of an unexpected payload or error kept in a problem's message. The cluster bench
   * gathers every subscriber's problems into one report, and keeps them shorter.
   */
  excerptChars: number;
  /** True once the bench is disposing of its clients, when a closing socket is no longer a problem. */
  isClosing: () => boolean;
  /** Each event's id, with the `wallNow()` at which it reached this subscriber. */
  onEvent: (eventId: string, at: number) => void;
  /** A problem after the handshake: a socket that closed, a payload without an event, a subscription error. */
  onProblem: (message: string) => void;
}

export interface FeedUpdateSubscriber {
  /** Already holds the subscription; dispose of it to close the socket. */
  client: Client;
  /** Resolves once the server acknowledged the connection; rejects if the socket closed before. */
  connected: Promise<void>;
}

export function openFeedUpdateSubscriber(options: FeedUpdateSubscriberOptions): FeedUpdateSubscriber {
  const excerpt = (value: unknown): string => JSON.stringify(value).slice(0, options.excerptChars);
  let acknowledged = false;
  let resolveConnected: () => void = () => undefined;
  let rejectConnected: (error: Error) => void = () => undefined;
  const connected = new Promise<void>((resolve, reject) => {
    resolveConnected = resolve;
    rejectConnected = reject;
  });
  const client = createClient({
    url: options.url,
    webSocketImpl: options.webSocketImpl,
    connectionParams: { Authorization: options.authorization },
    retryAttempts: 0,
    lazy: true,
    on: {
      connected: () => {
        acknowledged = true;
        resolveConnected();
      },
      closed: (event) => {
        const code = (event as { code?: number }).code;
        if (!acknowledged) rejectConnected(new Error(`closed before acknowledgement (${code})`));
        else if (!options.isClosing()) options.onProblem(`a subscriber's socket closed (${code})`);
      },
    },
  });
  client.subscribe<{ feedUpdate: { id: string } }>(
    { query: options.query },
    {
      next: (value) => {
        const at = wallNow();
        const id = value.data?.feedUpdate.id;
        if (id) options.onEvent(id, at);
        else options.onProblem(`a subscriber received ${excerpt(value)}`);
      },
      error: (error) => options.onProblem(`subscription error: ${excerpt(error)}`),
      complete: () => undefined,
    },
  );
  return { client, connected };
}
