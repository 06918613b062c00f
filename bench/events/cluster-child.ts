/**
 * Child of `bench/events/cluster.ts`, the load generator: opens its share of the subscribers
 * (graphql-ws over TLS, or `GET /v1/events` streams read as server-sent events), records when each
 * event first reached each subscriber and any second delivery, and watches its own event loop.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { openFeedUpdateSubscriber, webSocketTrusting } from './feed-update-subscriber.js';
import { wallNow } from './protocol.js';
import type { EventArrivals, FromChild, SubscriberSpec, ToChild } from './cluster-protocol.js';

const send = (message: FromChild): void => void process.send?.(message);
const loop = monitorEventLoopDelay({ resolution: 10 });
const failures: string[] = [];
/** By path and event id (`ws evt_…`). */
const arrivals = new Map<string, EventArrivals>();
const closers: (() => Promise<void>)[] = [];
let closing = false;

/** A subscriber (`seen` is its own) got event `eventId`: counted once per subscriber, later copies as duplicates. */
function record(kind: SubscriberSpec['kind'], seen: Set<string>, eventId: string, at: number): void {
  const key = `${kind} ${eventId}`;
  const entry = arrivals.get(key) ?? { kind, eventId, received: 0, duplicates: 0, lastAt: 0 };
  if (seen.has(eventId)) entry.duplicates += 1;
  else {
    seen.add(eventId);
    entry.received += 1;
    entry.lastAt = Math.max(entry.lastAt, at);
  }
  arrivals.set(key, entry);
}

function openWs(spec: Extract<SubscriberSpec, { kind: 'ws' }>, ca: string): Promise<void> {
  const seen = new Set<string>();
  const { client, connected } = openFeedUpdateSubscriber({
    url: `${spec.origin.replace(/^https/, 'wss')}/graphql`,
    webSocketImpl: webSocketTrusting(ca),
    authorization: spec.authorization,
    query: spec.query,
    excerptChars: 200,
    isClosing: () => closing,
    onEvent: (eventId, at) => record('ws', seen, eventId, at),
    onProblem: (message) => failures.push(message),
  });
  closers.push(async () => {
    await client.dispose();
  });
  return connected;
}

/** A `GET /v1/events` stream; only the frames' `id:` lines matter here (each is an event id). */
async function openSse(spec: SubscriberSpec, dispatcher: Agent): Promise<void> {
  const seen = new Set<string>();
  const controller = new AbortController();
  const response = await request(`${spec.origin}/v1/events`, {
    dispatcher,
    headers: { authorization: spec.authorization, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (response.statusCode !== 200)
    throw new Error(`GET /v1/events answered ${response.statusCode}: ${(await response.body.text()).slice(0, 200)}`);
  closers.push(async () => controller.abort());
  let pending = '';
  response.body.setEncoding('utf8');
  response.body.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('id:')) record('sse', seen, line.slice(3).trim(), wallNow());
  });
  response.body.on('error', (error: Error) => {
    if (!closing) failures.push(`an event stream failed: ${error.message}`);
  });
  response.body.on('end', () => {
    if (!closing) failures.push('an event stream ended');
  });
}

async function open(message: Extract<ToChild, { type: 'open' }>): Promise<void> {
  const dispatcher = new Agent({ connect: { ca: message.ca, servername: 'localhost' }, connections: null, bodyTimeout: 0 });
  closers.push(() => dispatcher.close());
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(message.concurrency, message.subscribers.length) }, async () => {
      for (let n = next++; n < message.subscribers.length; n = next++) {
        const spec = message.subscribers[n] as SubscriberSpec;
        await (spec.kind === 'ws' ? openWs(spec, message.ca) : openSse(spec, dispatcher));
      }
    }),
  );
  loop.enable();
  send({ type: 'opened', ms: performance.now() - started });
}

process.on('message', (message: ToChild) => {
  if (message.type === 'open') {
    open(message).catch((error: unknown) => send({ type: 'failed', message: `opening: ${String(error)}` }));
  } else if (message.type === 'report') {
    const cpu = process.cpuUsage();
    send({
      type: 'report',
      events: [...arrivals.values()],
      failures,
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      loopDelayMaxMs: loop.max / 1e6,
      cpuMs: (cpu.user + cpu.system) / 1000,
      rssMb: process.memoryUsage.rss() / 1e6,
    });
  } else {
    closing = true;
    Promise.all(closers.map((close) => close().catch(() => undefined))).finally(() => {
      send({ type: 'closed' });
      process.disconnect();
    });
  }
});
