import type { AddressInfo } from 'node:net';
import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../../src/webhook-event/feed-update-event.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { openSse, type SseClient } from '../fixtures/sse-client.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const aliceSource = await startRssSource(1);
const otherSource = await startRssSource(1);
const open: SseClient[] = [];
t.teardown(async () => {
  for (const client of open) client.close();
  await app.close();
  await aliceSource.close();
  await otherSource.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const post = (url: string, body: unknown) =>
  app.inject({ method: 'POST', url, headers: { authorization: alice, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const feedId = (await post('/v1/feeds', { url: aliceSource.url })).json<{ id: string }>().id;
const otherId = (await post('/v1/feeds', { url: otherSource.url })).json<{ id: string }>().id;
const bundleId = (await post('/v1/bundles', { name: 'Only the first', feeds: [feedId] })).json<{ id: string }>().id;

const published: FeedEventEnvelope[] = [];
for (const account of ['alice', 'bob']) env.deps.bus.subscribe(account, (envelope) => void published.push(envelope));
let n = 0;
/** The source publishes an item and the feed's refresh runs; returns the event it published. */
async function publish(source = aliceSource, id = feedId): Promise<FeedUpdateEvent> {
  n += 1;
  source.addItem(`Post ${n}`);
  const before = published.length;
  await refreshFeed(env.deps, id);
  const event = published[before]?.event;
  if (!event) throw new Error(`refresh of ${id} published nothing`);
  return event;
}
const connect = async (query = '', headers: Record<string, string> = {}): Promise<SseClient> => {
  // The server listens to the bus in the same turn as it sends the headers: once they are here, so is the listener.
  const client = await openSse(`${base}/v1/events${query}`, { authorization: alice, ...headers });
  open.push(client);
  return client;
};
const received = async (client: SseClient) => {
  const frame = await client.next();
  const event = JSON.parse(frame.data) as FeedUpdateEvent;
  return { frameId: frame.id, event: frame.event, id: event.id, title: event.data.items_new[0]?.title };
};

t.test(
  'a client that disconnects, misses three events and reconnects with Last-Event-ID gets exactly those three, then live ones',
  async (t) => {
    const first = await connect();
    t.equal(first.status, 200);
    const seen = await publish();
    t.same(
      await received(first),
      { frameId: seen.id, event: 'feed_update', id: seen.id, title: seen.data.items_new[0]?.title },
      'each frame carries the event id',
    );
    first.close();

    const missed = [await publish(), await publish(), await publish()];
    const again = await connect('', { 'last-event-id': seen.id });
    for (const event of missed) t.equal((await received(again)).id, event.id, 'a missed event, in order');
    const live = await publish();
    t.equal((await received(again)).id, live.id, 'then the live event, with no missed one repeated');
    const next = await publish();
    t.equal((await received(again)).id, next.id);
    t.equal(again.pending, 0, 'nothing else arrived');
    again.close();
  },
);

t.test('?since= replays like Last-Event-ID; a stream scoped to a bundle gets only its feeds', async (t) => {
  const from = await publish();
  await publish(otherSource, otherId);
  const inBundle = await publish();
  const scoped = await connect(`?bundles=${bundleId}&since=${from.id}`);
  t.equal((await received(scoped)).id, inBundle.id, "the other feed's event is out of scope");
  await publish(otherSource, otherId);
  const live = await publish();
  t.equal((await received(scoped)).id, live.id);
  scoped.close();
  const byFeed = await connect(`?feeds=${otherId}&since=${from.id}`);
  t.equal((JSON.parse((await byFeed.next()).data) as FeedUpdateEvent).feed.id, otherId);
  byFeed.close();
});

t.test('Accept: application/json gives pages of past events, oldest first', async (t) => {
  const get = (query: string) =>
    app.inject({ method: 'GET', url: `/v1/events${query}`, headers: { authorization: alice, accept: 'application/json' } });
  const all = published.filter((envelope) => envelope.accountId === published[0]?.accountId).map((envelope) => envelope.event.id);
  const ids: string[] = [];
  let since: string | null = '';
  while (since !== null) {
    const response = await get(`?limit=2${since ? `&since=${since}` : ''}`);
    t.equal(response.statusCode, 200);
    const page = response.json<{ data: FeedUpdateEvent[]; next_since: string | null }>();
    ids.push(...page.data.map((event) => event.id));
    since = page.next_since;
  }
  t.same(ids, all, 'every stored event of the account, once, in the order they were published');
  const scoped = await get(`?feeds=${otherId}`);
  t.ok(scoped.json<{ data: FeedUpdateEvent[] }>().data.every((event) => event.feed.id === otherId));
});

t.test('refusals before the stream starts: another account, a bad id, an unknown since, a missing key', async (t) => {
  const bobs = await app.inject({
    method: 'GET',
    url: `/v1/events?feeds=${feedId}`,
    headers: { authorization: bob, accept: 'application/json' },
  });
  t.equal(bobs.statusCode, 404, "another account's feed is not found");
  const aliceEvent = published[0]?.event.id ?? '';
  const bobSince = await app.inject({ method: 'GET', url: `/v1/events?since=${aliceEvent}`, headers: { authorization: bob } });
  t.equal(bobSince.statusCode, 404, "another account's event id is not a place to resume from");
  t.match(bobSince.json(), { errors: [{ code: 'event_not_found' }] });
  t.match(bobSince.json<{ message: string }>().message, /Expected `since` to be the id of one of this account's events/);
  t.equal(
    (await app.inject({ method: 'GET', url: '/v1/events', headers: { authorization: alice, 'last-event-id': 'evt_nope' } })).statusCode,
    404,
  );
  t.equal(
    (await app.inject({ method: 'GET', url: '/v1/events?since=nope', headers: { authorization: alice } })).statusCode,
    400,
    'not an event id at all',
  );
  t.equal((await app.inject({ method: 'GET', url: '/v1/events' })).statusCode, 401);
});

t.test('FEEDMILL_EVENT_STREAMS_PER_ACCOUNT caps the streams one account holds open in a process', async (t) => {
  const capped = await buildHttpApp({ ...env.deps, settings: { ...env.deps.settings, eventStreamsPerAccount: 2 } }, { httpsOnly: false });
  await capped.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(capped.server.address() as AddressInfo).port}/v1/events`;
  const streams = [await openSse(url, { authorization: alice }), await openSse(url, { authorization: alice })];
  t.teardown(async () => {
    for (const stream of streams) stream.close();
    await capped.close();
  });
  t.same(
    streams.map((stream) => stream.status),
    [200, 200],
  );
  const third = await fetch(url, { headers: { authorization: alice, accept: 'text/event-stream' } });
  t.equal(third.status, 429, 'the third stream of the account is refused');
  const body = (await third.json()) as { errors: { code: string }[]; message: string };
  t.equal(body.errors[0]?.code, 'too_many_connections');
  t.match(body.message, /At most 2 event streams .*FEEDMILL_EVENT_STREAMS_PER_ACCOUNT/);
  const bobs = await openSse(url, { authorization: bob });
  streams.push(bobs);
  t.equal(bobs.status, 200, "another account's streams are counted apart");
  streams[0]?.close();
  // The slot is given back when the server sees the connection close, a moment after the client drops it.
  let again: SseClient | undefined;
  for (let attempt = 0; attempt < 50 && again?.status !== 200; attempt++) {
    again?.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    again = await openSse(url, { authorization: alice });
  }
  if (again) streams.push(again);
  t.equal(again?.status, 200, 'a closed stream frees its place');
});
