/**
 * Child process of `bench/events.ts`: opens `count` graphql-ws clients (one WebSocket each, over
 * TLS, trusting only the bench server's certificate), `concurrency` connection handshakes at a time,
 * subscribes each to the same `feedUpdate`, and reports when every subscriber has an event.
 * Runs apart from the server so that 1000 clients' TLS and JSON work does not share its event loop.
 */
import type { Client } from 'graphql-ws';
import { openFeedUpdateSubscriber, webSocketTrusting, type WebSocketClass } from './feed-update-subscriber.js';
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
function openOne(request: OpenRequest, webSocketImpl: WebSocketClass): Promise<void> {
  const { client, connected } = openFeedUpdateSubscriber({
    url: request.wsUrl,
    webSocketImpl,
    authorization: request.authorization,
    query: request.query,
    excerptChars: 300,
    isClosing: () => closing,
    onEvent: record,
    onProblem: (message) => send({ type: 'failed', message }),
  });
  clients.push(client);
  return connected;
}

async function open(request: OpenRequest): Promise<void> {
  const webSocketImpl = webSocketTrusting(request.ca);
  const started = performance.now();
  expected = request.count;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < request.count) {
      next += 1;
      await openOne(request, webSocketImpl);
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
