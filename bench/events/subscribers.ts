/**
 * Child process of `bench/events.ts`: opens `count` graphql-ws clients (one WebSocket each, over
 * TLS, trusting only the bench server's certificate), `concurrency` connection handshakes at a time,
 * subscribes each to the same `feedUpdate`, and reports when every subscriber has an event.
 * Runs apart from the server so that 1000 clients' TLS and JSON work does not share its event loop.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { wallNow, type ChildMessage, type OpenRequest, type ParentMessage } from './protocol.js';

const send = (message: ChildMessage): void => {
  process.send?.(message);
};

const clients: Client[] = [];
const arrivals = new Map<string, number[]>();
let expected = 0;

function record(eventId: string, at: number): void {
  const stamps = arrivals.get(eventId) ?? [];
  stamps.push(at);
  arrivals.set(eventId, stamps);
  if (stamps.length === expected) {
    arrivals.delete(eventId);
    send({ type: 'event', eventId, stamps });
  }
}

/** Opens one client and subscribes; resolves once the server acknowledged the connection. */
function openOne(request: OpenRequest, Socket: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    let acknowledged = false;
    const client = createClient({
      url: request.wsUrl,
      webSocketImpl: Socket,
      connectionParams: { Authorization: request.authorization },
      retryAttempts: 0,
      lazy: true,
      on: {
        connected: () => {
          acknowledged = true;
          resolve();
        },
        closed: (event) => {
          const code = (event as { code?: number }).code;
          if (!acknowledged) reject(new Error(`closed before acknowledgement (${code})`));
          else if (!closing) send({ type: 'failed', message: `a subscriber's socket closed (${code})` });
        },
      },
    });
    clients.push(client);
    client.subscribe<{ feedUpdate: { id: string } }>(
      { query: request.query },
      {
        next: (value) => {
          const at = wallNow();
          const id = value.data?.feedUpdate.id;
          if (id) record(id, at);
          else send({ type: 'failed', message: `a subscriber received ${JSON.stringify(value).slice(0, 300)}` });
        },
        error: (error) => send({ type: 'failed', message: `subscription error: ${JSON.stringify(error).slice(0, 300)}` }),
        complete: () => undefined,
      },
    );
  });
}

async function open(request: OpenRequest): Promise<void> {
  const { ca } = request;
  class TrustingWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { ca });
    }
  }
  const started = performance.now();
  expected = request.count;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < request.count) {
      next += 1;
      await openOne(request, TrustingWebSocket);
    }
  };
  await Promise.all(Array.from({ length: Math.min(request.concurrency, request.count) }, worker));
  send({ type: 'opened', count: clients.length, ms: performance.now() - started });
}

let closing = false;
process.on('message', (message: ParentMessage) => {
  switch (message.type) {
    case 'open':
      open(message).catch((error: unknown) => send({ type: 'failed', message: `opening: ${String(error)}` }));
      break;
    case 'clock':
      send({ type: 'clock', id: message.id, now: wallNow() });
      break;
    case 'flush':
      send({ type: 'event', eventId: message.eventId, stamps: arrivals.get(message.eventId) ?? [] });
      arrivals.delete(message.eventId);
      break;
    case 'cpu': {
      const usage = process.cpuUsage();
      send({ type: 'cpu', micros: usage.user + usage.system });
      break;
    }
    case 'close':
      closing = true;
      Promise.all(clients.map(async (client) => client.dispose()))
        .catch(() => undefined)
        .finally(() => {
          send({ type: 'closed' });
          process.disconnect();
        });
      break;
  }
});
