import t from 'tap';
import { Agent, request } from 'undici';
import type WebSocket from 'ws';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import type { GraphqlError } from './graphql-client.js';
import { collect, drained, listening, openWebSocket, sseSubscribe, startGraphqlHttps, wsClient } from './transport-fixtures.js';

// Small caps, so each is reached in a few operations; every test uses its own accounts and keys.
const caps = { perConnection: 3, perAccount: 4 };
const connectionsPerKey = 3;
const budget = 20;

const env = createTestDeps();
const server = await startGraphqlHttps(env.deps, {
  rateLimit: { max: budget, windowMs: 60_000 },
  mount: { subscriptionCaps: caps, connectionsPerKey },
});
t.teardown(async () => {
  await server.close();
  await env.close();
});

const baseline = env.deps.bus.listenerCount;
t.beforeEach(() => drained(env.deps, baseline));

type SseStream = Awaited<ReturnType<typeof sseSubscribe>>;

const https = new Agent({ connect: { ca: server.ca } });
t.teardown(() => https.close());
/** One GraphQL request over the real HTTPS server, as any client sends it. */
async function post(authorization: string, query = '{ feeds { totalCount } }', accept = 'application/json') {
  const response = await request(server.httpUrl, {
    method: 'POST',
    headers: { authorization, accept, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    dispatcher: https,
  });
  const text = await response.body.text();
  return {
    statusCode: response.statusCode,
    body: text ? (JSON.parse(text) as { statusCode: number; message: string; errors: { code: string }[] }) : undefined,
  };
}

const keyIdOf = (authorization: string): string => authorization.slice('Bearer '.length, authorization.indexOf(':'));
const live = 'subscription { feedUpdate { id } }';
const codeOf = (errors: readonly GraphqlError[] | undefined): string | undefined => errors?.[0]?.extensions?.code;

let published = 0;
/** Publishes an event of the account on the bus; subscribers select only its `id`. */
async function publish(accountId: string): Promise<string> {
  published += 1;
  const id = `evt_limits${String(published).padStart(14, '0')}`;
  // Only `id` is selected by these subscriptions, so the feed and items can stay empty.
  const event: FeedEventEnvelope['event'] = {
    id,
    type: 'feed_update',
    feed: {} as FeedEventEnvelope['event']['feed'],
    data: { items_new: [], items_changed: [] },
  };
  const envelope: FeedEventEnvelope = { accountId, feedId: 'feedlimits000000', occurredAt: new Date().toISOString(), event };
  await env.deps.bus.publish(envelope);
  return id;
}

interface Result {
  data?: { feedUpdate?: { id: string } } | null;
  errors?: readonly GraphqlError[];
}

/** One graphql-ws connection (the client opens a single socket) on which tests subscribe several times. */
function connection(authorization: string) {
  const client = wsClient(server, { Authorization: authorization });
  const subscribe = (query = live) =>
    collect<Result>((sink) =>
      client.subscribe(
        { query },
        {
          next: (value) => sink.next(value as Result),
          complete: () => sink.complete(),
          // graphql-ws reports an operation refused before it ran with the GraphQL errors as an array.
          error: (error) => (Array.isArray(error) ? sink.next({ errors: error as GraphqlError[] }) : sink.error(error)),
        },
      ),
    );
  return { subscribe, close: () => client.dispose() };
}

/** Waits until the server counts `count` connections for the key: it learns of a killed socket a moment later. */
async function connectionsBackTo(keyId: string, count: number): Promise<void> {
  for (let round = 0; server.mount.connectionsOf(keyId) !== count; round += 1) {
    if (round > 500) throw new Error(`expected ${count} connections of ${keyId}, have ${server.mount.connectionsOf(keyId)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

t.test('one WebSocket holds at most 3 subscriptions: the 4th is refused and the first 3 still receive events', async (t) => {
  const alice = connection(await env.bearer('conn-alice'));
  t.teardown(alice.close);
  const first = [alice.subscribe(), alice.subscribe(), alice.subscribe()];
  await listening(env.deps, baseline + 3);
  const [refused] = await alice.subscribe().next(1);
  t.equal(codeOf(refused?.errors), 'too_many_subscriptions');
  t.equal(refused?.errors?.[0]?.extensions?.statusCode, 429);
  t.match(refused?.errors?.[0]?.message, /at most 3 live subscriptions on one connection/);
  t.notOk(refused?.data?.feedUpdate);

  const event = await publish('conn-alice');
  for (const [n, subscription] of first.entries())
    t.same((await subscription.next(1))[0]?.data?.feedUpdate?.id, event, `subscription ${n + 1} got it`);

  first[0]?.stop();
  await drained(env.deps, baseline + 2);
  const again = alice.subscribe();
  await listening(env.deps, baseline + 3);
  const next = await publish('conn-alice');
  t.same((await again.next(1))[0]?.data?.feedUpdate?.id, next, 'completing one freed its slot for another');
});

t.test("an account holds at most 4 subscriptions across its WebSockets; another account's are its own", async (t) => {
  const one = connection(await env.bearer('acct-alice'));
  const two = connection(await env.bearer('acct-alice'));
  const bob = connection(await env.bearer('acct-bob'));
  t.teardown(one.close);
  t.teardown(two.close);
  t.teardown(bob.close);
  const onOne = [one.subscribe(), one.subscribe(), one.subscribe()];
  await listening(env.deps, baseline + 3);
  const onTwo = two.subscribe();
  await listening(env.deps, baseline + 4);
  const [refused] = await two.subscribe().next(1);
  t.equal(codeOf(refused?.errors), 'too_many_subscriptions', 'the 5th of the account, on a connection holding one');
  t.match(refused?.errors?.[0]?.message, /at most 4 live subscriptions for this account/);
  const bobs = bob.subscribe();
  await listening(env.deps, baseline + 5);

  const event = await publish('acct-alice');
  for (const subscription of [...onOne, onTwo]) t.same((await subscription.next(1))[0]?.data?.feedUpdate?.id, event);
  const bobsEvent = await publish('acct-bob');
  t.same((await bobs.next(1))[0]?.data?.feedUpdate?.id, bobsEvent, "bob's subscription was not counted against alice");

  onOne[0]?.stop();
  await drained(env.deps, baseline + 4);
  const freed = two.subscribe();
  await listening(env.deps, baseline + 5);
  const next = await publish('acct-alice');
  t.same((await freed.next(1))[0]?.data?.feedUpdate?.id, next, 'the freed slot was taken on the other connection');
});

t.test('SSE subscriptions count against the account too; closing a stream frees its slot', async (t) => {
  const alice = await env.bearer('sse-alice');
  const alice2 = await env.bearer('sse-alice');
  const streams: SseStream[] = [];
  for (let n = 0; n < 3; n += 1) streams.push(await sseSubscribe(server, alice, live));
  streams.push(await sseSubscribe(server, alice2, live));
  t.teardown(() => Promise.all(streams.map((stream) => stream.close())));
  await listening(env.deps, baseline + 4);
  t.same(
    streams.map((stream) => stream.status),
    [200, 200, 200, 200],
  );

  const refused = await sseSubscribe(server, alice2, live);
  t.teardown(refused.close);
  const [answer] = await refused.events.next(1);
  t.equal(codeOf((answer?.data as Result | undefined)?.errors), 'too_many_subscriptions');

  const event = await publish('sse-alice');
  for (const stream of streams) t.same((await stream.events.next(1))[0]?.data, { data: { feedUpdate: { id: event } } });

  await streams[0]?.close();
  await drained(env.deps, baseline + 3);
  const freed = await sseSubscribe(server, alice2, live);
  t.teardown(freed.close);
  await listening(env.deps, baseline + 4);
  const next = await publish('sse-alice');
  t.same((await freed.events.next(1))[0]?.data, { data: { feedUpdate: { id: next } } }, 'a new stream took the freed slot');
});

t.test('WebSocket operations spend the same budget as HTTP requests; past it, no transport opens more', async (t) => {
  const query = '{ feeds { totalCount } }';

  const spentOverHttp = await env.bearer('rate-alice');
  for (let n = 0; n < budget; n += 1) t.equal((await post(spentOverHttp)).statusCode, 200);
  const ws = connection(spentOverHttp);
  t.teardown(ws.close);
  const [refused] = await ws.subscribe().next(1);
  t.equal(codeOf(refused?.errors), 'rate_limited', 'a WebSocket subscribe past the budget spent over HTTP');
  t.match(refused?.errors?.[0]?.message, /may make 20 per 60 s/);
  const sse = await sseSubscribe(server, spentOverHttp, live);
  t.teardown(sse.close);
  t.equal(sse.status, 429, 'and an SSE subscription');

  const spentOverWs = await env.bearer('rate-alice');
  const busy = connection(spentOverWs);
  t.teardown(busy.close);
  for (let n = 0; n < budget; n += 1) t.equal((await busy.subscribe(query).next(1))[0]?.errors, undefined, `operation ${n + 1} runs`);
  const [over] = await busy.subscribe(query).next(1);
  t.equal(codeOf(over?.errors), 'rate_limited', 'the operation past the budget is refused');
  t.equal((await post(spentOverWs)).statusCode, 429, 'and the key is limited over HTTP too');
});

t.test('a key holds at most 3 connections: the 4th WebSocket is closed with 4429, the next SSE stream gets 429', async (t) => {
  const alice = await env.bearer('cap-alice');
  const sockets: WebSocket[] = [];
  t.teardown(() => sockets.forEach((socket) => socket.terminate()));
  for (let n = 0; n < connectionsPerKey; n += 1) {
    const opened = await openWebSocket(server, alice);
    if (opened.code !== undefined) throw new Error(`connection ${n + 1} was closed with ${opened.code}`);
    sockets.push(opened.socket);
  }
  const refused = await openWebSocket(server, alice);
  t.equal(refused.code, 4429);
  t.equal(refused.code === undefined ? undefined : refused.reason, 'Too many connections: this key may hold 3 at once');

  const stream = await sseSubscribe(server, alice, live);
  t.teardown(stream.close);
  t.equal(stream.status, 429, 'SSE streams count as connections of the key');
  const other = await openWebSocket(server, await env.bearer('cap-alice'));
  t.equal(other.code, undefined, 'another key of the same account has its own connections');
  if (other.code === undefined) sockets.push(other.socket);

  sockets[0]?.terminate();
  await connectionsBackTo(keyIdOf(alice), 2);
  const again = await openWebSocket(server, alice);
  t.equal(again.code, undefined, 'a closed connection frees its place');
  if (again.code === undefined) sockets.push(again.socket);
});

t.test('the 429 for one SSE stream too many is in our error shape', async (t) => {
  const alice = await env.bearer('cap-sse');
  const streams: SseStream[] = [];
  for (let n = 0; n < connectionsPerKey; n += 1) streams.push(await sseSubscribe(server, alice, live));
  t.teardown(() => Promise.all(streams.map((stream) => stream.close())));
  const { statusCode, body } = await post(alice, live, 'text/event-stream');
  t.equal(statusCode, 429);
  t.equal(body?.statusCode, 429);
  t.same(
    body?.errors.map((error) => error.code),
    ['too_many_connections'],
  );
  t.match(body?.message, /at most 3 open GraphQL streams and WebSockets for this key/);
});

t.test('connections killed mid-subscription give back every slot they held', async (t) => {
  const alice = await env.bearer('leak-alice');
  const streamer = await env.bearer('leak-alice');
  const subscribeRaw = (socket: WebSocket, id: string) => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: live } }));
  for (let round = 0; round < 4; round += 1) {
    const sockets: WebSocket[] = [];
    for (let n = 0; n < connectionsPerKey; n += 1) {
      const opened = await openWebSocket(server, alice);
      if (opened.code !== undefined)
        throw new Error(`round ${round + 1}: connection ${n + 1} was closed with ${opened.code} ${opened.reason}`);
      sockets.push(opened.socket);
      subscribeRaw(opened.socket, `s${n}`);
    }
    await listening(env.deps, baseline + connectionsPerKey);
    // No close frame: the TCP connection just goes, as when a client crashes.
    for (const socket of sockets) socket.terminate();
    await connectionsBackTo(keyIdOf(alice), 0);
    await drained(env.deps, baseline);
  }
  const streams: SseStream[] = [];
  for (let round = 0; round < 2; round += 1) {
    for (let n = 0; n < connectionsPerKey; n += 1) streams.push(await sseSubscribe(server, streamer, live));
    await listening(env.deps, baseline + connectionsPerKey);
    for (const stream of streams.splice(0)) await stream.close();
    await connectionsBackTo(keyIdOf(streamer), 0);
    await drained(env.deps, baseline);
  }

  const after = connection(alice);
  t.teardown(after.close);
  const subscriptions = [after.subscribe(), after.subscribe(), after.subscribe()];
  await listening(env.deps, baseline + 3);
  const event = await publish('leak-alice');
  for (const subscription of subscriptions)
    t.same((await subscription.next(1))[0]?.data?.feedUpdate?.id, event, 'subscribes as on the first day');
  t.equal(server.mount.connectionsOf(keyIdOf(alice)), 1);
});

t.test('a misspelled field over WebSockets gets no "Did you mean" hint either', async (t) => {
  const alice = connection(await env.bearer('hint-alice'));
  t.teardown(alice.close);
  const [refused] = await alice.subscribe('subscription { feedUpdate { idd } }').next(1);
  t.equal(codeOf(refused?.errors), 'validation_failed');
  t.match(refused?.errors?.[0]?.message, /Cannot query field "idd"/);
  t.notMatch(refused?.errors?.[0]?.message, /Did you mean/);
});

t.test('a subscription asked for without a streaming Accept is refused without keeping its slot', async (t) => {
  const alice = await env.bearer('plain-alice');
  for (let n = 0; n < caps.perAccount + 2; n += 1) {
    const { statusCode } = await post(alice, live, 'application/json');
    t.equal(statusCode, 406, `request ${n + 1}: only an event stream can carry a subscription`);
  }
  const stream = await sseSubscribe(server, alice, live);
  t.teardown(stream.close);
  await listening(env.deps, baseline + 1);
  const event = await publish('plain-alice');
  t.same((await stream.events.next(1))[0]?.data, { data: { feedUpdate: { id: event } } }, 'the account still has all its slots');
});
