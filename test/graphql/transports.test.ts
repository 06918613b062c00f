import t from 'tap';
import WebSocket from 'ws';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import type { EventItem, FeedEventEnvelope, FeedUpdateEvent } from '../../src/webhook-event/feed-update-event.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { codesOf, graphql, type GraphqlError } from './graphql-client.js';
import { drained, listening, sseSubscribe, startGraphqlHttps, subscribeWs as subscribeWithWs } from './transport-fixtures.js';

const env = createTestDeps();
const server = await startGraphqlHttps(env.deps);
const aliceSource = await startRssSource(2);
const otherSource = await startRssSource(1);
const bobSource = await startRssSource(1);
t.teardown(async () => {
  await server.close();
  await aliceSource.close();
  await otherSource.close();
  await bobSource.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');
const yoga = server.mount.yoga;

const createFeed = async (url: string, authorization: string): Promise<string> => {
  const response = await graphql<{ createFeed: { id: string } }>(
    yoga,
    authorization,
    'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }',
    { url },
  );
  const id = response.data?.createFeed.id;
  if (!id) throw new Error(`createFeed failed: ${JSON.stringify(response.errors)}`);
  return id;
};
const aliceFeed = await createFeed(aliceSource.url, alice);
const otherFeed = await createFeed(otherSource.url, alice);
const bobFeed = await createFeed(bobSource.url, bob);

// Every event that leaves the bus, as webhook dispatch sees it: what subscribers must receive too.
const published: FeedEventEnvelope[] = [];
for (const account of ['alice', 'bob']) env.deps.bus.subscribe(account, (envelope) => void published.push(envelope));
const baseline = env.deps.bus.listenerCount;
t.beforeEach(() => drained(env.deps, baseline));

/** The upstream publishes an item and the feed actor's refresh runs; returns the event it published. */
async function publish(source: typeof aliceSource, feedId: string, title: string): Promise<FeedUpdateEvent> {
  source.addItem(title);
  const before = published.length;
  const outcome = await refreshFeed(env.deps, feedId);
  const event = published[before]?.event;
  if (outcome?.status !== 'changed' || !event) throw new Error(`refresh of ${feedId} published nothing (${outcome?.status ?? 'no feed'})`);
  return event;
}

const eventFields = `id type feed { id title sourceUrl rssFeedUrl description icon }
  data {
    itemsNew { url title descriptionText thumbnail datePublished authors { name } }
    itemsChanged { url title descriptionText thumbnail datePublished authors { name } changedFields }
  }`;

const inGraphqlItem = (item: EventItem) => ({
  url: item.url,
  title: item.title,
  descriptionText: item.description_text,
  thumbnail: item.thumbnail,
  datePublished: item.date_published,
  authors: item.authors,
});

/** The event on the bus (a webhook's JSON) in GraphQL's names: what a subscriber must receive. */
const inGraphql = (event: FeedUpdateEvent) => ({
  id: event.id,
  type: 'FEED_UPDATE',
  feed: {
    id: event.feed.id,
    title: event.feed.title,
    sourceUrl: event.feed.source_url,
    rssFeedUrl: event.feed.rss_feed_url,
    description: event.feed.description,
    icon: event.feed.icon,
  },
  data: {
    itemsNew: event.data.items_new.map(inGraphqlItem),
    itemsChanged: event.data.items_changed.map((item) => ({ ...inGraphqlItem(item), changedFields: item.changed_fields })),
  },
});
type SubscribedEvent = ReturnType<typeof inGraphql>;
const subscription = (args = '') => `subscription { feedUpdate${args} { ${eventFields} } }`;

interface Result {
  data?: { feedUpdate: SubscribedEvent } | null;
  errors?: readonly GraphqlError[];
}

const subscribeWs = (authorization: string, query: string) => subscribeWithWs<Result>(server, authorization, query);

t.test('a WebSocket subscriber receives the same event object a webhook gets when a feed gains an item', async (t) => {
  const live = subscribeWs(alice, subscription());
  t.teardown(live.close);
  await listening(env.deps, baseline + 1);
  const event = await publish(aliceSource, aliceFeed, 'Fresh over WebSockets');
  const [received] = await live.results.next();
  t.same(received?.errors, undefined);
  t.same(received?.data?.feedUpdate, inGraphql(event), 'field for field the event on the bus, in GraphQL names');
  const delivered = received?.data?.feedUpdate;
  t.match(delivered?.id, /^evt_[A-Za-z0-9_-]{24}$/);
  t.equal(delivered?.type, 'FEED_UPDATE');
  t.equal(delivered?.feed.id, aliceFeed);
  t.same(
    delivered?.data.itemsNew.map((item) => item.title),
    ['Fresh over WebSockets'],
  );
  t.same(delivered?.data.itemsChanged, []);
});

t.test("an event's feed answers `status` too, read from the store (events carry the spec's fields only)", async (t) => {
  const live = subscribeWs(alice, 'subscription { feedUpdate { id feed { id status { state consecutiveErrors lastError { code } } } } }');
  t.teardown(live.close);
  await listening(env.deps, baseline + 1);
  const event = await publish(aliceSource, aliceFeed, 'Fresh with a status');
  t.notOk('status' in event.feed, 'the event object itself has no status');
  const [received] = await live.results.next();
  t.same(received?.errors, undefined);
  t.same((received?.data?.feedUpdate.feed as { status?: unknown } | undefined)?.status, {
    state: 'ACTIVE',
    consecutiveErrors: 0,
    lastError: null,
  });
});

t.test("a subscriber never receives another account's events, and cannot name its feeds", async (t) => {
  const bobs = subscribeWs(bob, subscription());
  const alices = subscribeWs(alice, subscription());
  t.teardown(bobs.close);
  t.teardown(alices.close);
  await listening(env.deps, baseline + 2);
  const event = await publish(aliceSource, aliceFeed, 'For alice only');
  t.equal((await alices.results.next())[0]?.data?.feedUpdate.id, event.id, "alice's own subscription got it");
  const bobsOwn = await publish(bobSource, bobFeed, 'For bob only');
  const [first] = await bobs.results.next();
  t.equal(first?.data?.feedUpdate.id, bobsOwn.id, "bob's first event is his own: alice's never reached him");
  t.equal(bobs.results.results.length, 1);

  const prying = subscribeWs(bob, subscription(`(feedIds: ["${aliceFeed}"])`));
  t.teardown(prying.close);
  const [refused] = await prying.results.next();
  t.same(
    refused?.errors?.map((error) => error.extensions?.code),
    ['feed_not_found'],
  );
  t.notOk(refused?.data?.feedUpdate);
});

t.test('a bundle subscription delivers events of its member feeds, including feeds added later', async (t) => {
  const bundle = await graphql<{ createBundle: { id: string } }>(
    yoga,
    alice,
    'mutation ($f: ID!) { createBundle(input: { name: "B", feeds: [$f] }) { id } }',
    { f: aliceFeed },
  );
  const bundleId = bundle.data?.createBundle.id ?? '';
  const live = subscribeWs(alice, subscription(`(bundleIds: ["${bundleId}"])`));
  t.teardown(live.close);
  await listening(env.deps, baseline + 1);
  await publish(otherSource, otherFeed, 'Outside the bundle');
  const member = await publish(aliceSource, aliceFeed, 'Inside the bundle');
  t.same(
    (await live.results.next()).map((result) => result.data?.feedUpdate.id),
    [member.id],
    'only the member feed',
  );
  await graphql(yoga, alice, 'mutation ($b: ID!, $f: ID!) { addFeedToBundle(bundleId: $b, feedId: $f) { id } }', {
    b: bundleId,
    f: otherFeed,
  });
  const joined = await publish(otherSource, otherFeed, 'Joined the bundle');
  t.same(
    (await live.results.next(2)).map((result) => result.data?.feedUpdate.id),
    [member.id, joined.id],
  );
});

t.test('WebSocket connections without valid credentials are closed with 4401', async (t) => {
  const closeCode = (payload?: unknown) =>
    new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws', { ca: server.ca });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', ...(payload === undefined ? {} : { payload }) })));
      socket.on('message', (data: Buffer) => reject(new Error(`expected a close, got ${data.toString()}`)));
      socket.on('close', (code) => resolve(code));
      socket.on('error', reject);
    });
  t.equal(await closeCode(), 4401, 'no connectionParams');
  t.equal(await closeCode({ Authorization: `${alice.slice(0, -2)}xx` }), 4401, 'a wrong secret');
  t.equal(await closeCode({ authorization: 'Bearer nocolon' }), 4401, 'a malformed header');
});

t.test('depth and cost limits hold on WebSockets too', async (t) => {
  const fragments = Array.from({ length: 9 }, (_, n) => `fragment F${n} on Feed { ${n === 8 ? 'id' : `...F${n + 1}`} }`).join(' ');
  const deep = subscribeWs(alice, `subscription { feedUpdate { feed { ...F0 } } } ${fragments}`);
  t.teardown(deep.close);
  const [tooDeep] = await deep.results.next();
  t.match(tooDeep?.errors?.[0]?.message, /depth limit of 8 exceeded/);
  t.equal(tooDeep?.errors?.[0]?.extensions?.code, 'validation_failed');
  // A subscription has one root field, so the costly operation is a query, sent over the same socket.
  const full =
    'id title sourceUrl rssFeedUrl description icon settings { customAuthor } items { nodes { url title descriptionText descriptionHtml datePublished authors { name } } }';
  const aliases = Array.from({ length: 30 }, (_, n) => `f${n}: feeds(limit: 100) { nodes { ${full} } }`).join(' ');
  const costly = subscribeWs(alice, `{ ${aliases} }`);
  t.teardown(costly.close);
  const [tooCostly] = await costly.results.next();
  t.match(tooCostly?.errors?.[0]?.message, /Cost limit of 1000 exceeded/);
  t.notOk(tooCostly?.data, 'nothing ran');
});

t.test('an SSE subscriber receives the same event', async (t) => {
  const stream = await sseSubscribe(server, alice, subscription(`(feedIds: ["${aliceFeed}"])`));
  t.teardown(stream.close);
  t.equal(stream.status, 200);
  await listening(env.deps, baseline + 1);
  const event = await publish(aliceSource, aliceFeed, 'Fresh over SSE');
  const [first] = await stream.events.next();
  t.equal(first?.event, 'next');
  t.same(first?.data, { data: { feedUpdate: inGraphql(event) } }, 'field for field the event on the bus, in GraphQL names');

  const refused = await sseSubscribe(server, undefined, subscription());
  t.teardown(refused.close);
  t.equal(refused.status, 401, 'no credentials, no stream');
  const body = (await refused.events.next())[0]?.data as { errors?: GraphqlError[] } | undefined;
  t.same(codesOf({ status: 401, errors: body?.errors }), ['unauthorized']);
});

t.test('feedUpdate(since:) replays the events after it, then continues live, each once', async (t) => {
  const seen = await publish(aliceSource, aliceFeed, 'Seen before the drop');
  const missed = [
    await publish(aliceSource, aliceFeed, 'Missed 1'),
    await publish(otherSource, otherFeed, 'Missed 2'),
    await publish(aliceSource, aliceFeed, 'Missed 3'),
  ];
  const stream = await sseSubscribe(server, alice, subscription(`(since: "${seen.id}")`));
  t.teardown(stream.close);
  t.equal(stream.status, 200);
  // `next(n)` resolves with every frame so far once there are n.
  const ids = async (count: number) =>
    (await stream.events.next(count)).map((frame) => (frame.data as { data: { feedUpdate: SubscribedEvent } }).data.feedUpdate.id);
  t.same(
    await ids(3),
    missed.map((event) => event.id),
    'exactly the three missed, in order',
  );
  await listening(env.deps, baseline + 1);
  const live = await publish(aliceSource, aliceFeed, 'Live after the replay');
  t.same(
    await ids(4),
    [...missed, live].map((event) => event.id),
    'then the live one, none repeated',
  );
});
