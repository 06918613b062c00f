import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import type { AppDeps } from '../../src/app/deps.js';
import type { FeedStore } from '../../src/ports/feed-store.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { graphql } from './graphql-client.js';
import { drained, listening, sseSubscribe, startGraphqlHttps, subscribeWs as subscribeWithWs } from './transport-fixtures.js';

// One event reaching many subscribers runs the subscription's selection once for all who would get
// the same answer (src/graphql/shared-event-results.ts), over WebSockets and SSE alike. The runs
// are counted where the selection reaches the store: an event's `feed` is read when asked.

const env = createTestDeps();
let feedReads = 0;
/** The store as the server sees it, counting reads of one feed. */
const countingFeeds = new Proxy(env.deps.feeds, {
  get(target, name) {
    const value: unknown = Reflect.get(target, name, target);
    if (typeof value !== 'function') return value;
    if (name === 'get') {
      return (...args: Parameters<FeedStore['get']>) => {
        feedReads += 1;
        return target.get(...args);
      };
    }
    return (value as (...args: unknown[]) => unknown).bind(target);
  },
});
const serverDeps: AppDeps = { ...env.deps, feeds: countingFeeds };
const server = await startGraphqlHttps(serverDeps, { mount: { connectionsPerKey: 50 } });
const source = await startRssSource(1);
t.teardown(async () => {
  await server.close();
  await source.close();
  await env.close();
});

const alice = await env.bearer('alice');
const created = await graphql<{ createFeed: { id: string } }>(
  server.mount.yoga,
  alice,
  'mutation ($url: String!) { createFeed(input: { url: $url }) { id } }',
  { url: source.url },
);
const feedId = created.data?.createFeed.id ?? '';
const baseline = env.deps.bus.listenerCount;
t.beforeEach(() => drained(env.deps, baseline));

interface Received {
  data?: { feedUpdate: { id: string; feed?: { id: string; title: string } } } | null;
  errors?: unknown;
}

const subscribeWs = (query: string, variables: Record<string, unknown> = {}) => subscribeWithWs<Received>(server, alice, query, variables);

/** The source publishes an item and the refresh runs: one event on the bus. */
async function publishOne(title: string): Promise<void> {
  source.addItem(title);
  const outcome = await refreshFeed(env.deps, feedId);
  if (outcome?.status !== 'changed') throw new Error(`the refresh published nothing (${outcome?.status ?? 'no feed'})`);
}

const withFeed = 'subscription { feedUpdate { id feed { id title } } }';

t.test('subscribers of one key and one query, over WebSockets and SSE, share one run of the selection', async (t) => {
  const sockets = [subscribeWs(withFeed), subscribeWs(withFeed), subscribeWs(withFeed), subscribeWs(withFeed)];
  for (const socket of sockets) t.teardown(socket.close);
  const stream = await sseSubscribe(server, alice, withFeed);
  t.teardown(stream.close);
  await listening(env.deps, baseline + 5);

  feedReads = 0;
  await publishOne('Shared once');
  const answers = await Promise.all(sockets.map(async (socket) => (await socket.results.next(1))[0]));
  const [sse] = await stream.events.next(1);
  t.equal(feedReads, 1, "the event's feed was read once for five subscribers");
  const first = answers[0]?.data?.feedUpdate;
  t.equal(first?.feed?.id, feedId);
  t.match(first?.id, /^evt_/);
  for (const answer of answers) t.same(answer, answers[0], 'every WebSocket subscriber got the whole answer');
  t.same(sse?.data, answers[0], 'and so did the SSE subscriber');
});

t.test('subscribers whose variables differ each get the answer to their own query', async (t) => {
  const query = 'subscription ($full: Boolean!) { feedUpdate { id feed @include(if: $full) { id title } } }';
  const full = subscribeWs(query, { full: true });
  const bare = subscribeWs(query, { full: false });
  const fullToo = subscribeWs(query, { full: true });
  for (const socket of [full, bare, fullToo]) t.teardown(socket.close);
  await listening(env.deps, baseline + 3);

  feedReads = 0;
  await publishOne('Told two ways');
  const [fullAnswer] = await full.results.next(1);
  const [bareAnswer] = await bare.results.next(1);
  const [fullTooAnswer] = await fullToo.results.next(1);
  t.equal(fullAnswer?.data?.feedUpdate.feed?.id, feedId, 'asked for the feed, got it');
  t.notOk(bareAnswer?.data && 'feed' in bareAnswer.data.feedUpdate, 'did not ask, did not get it');
  t.equal(bareAnswer?.data?.feedUpdate.id, fullAnswer?.data?.feedUpdate.id, 'the same event');
  t.same(fullTooAnswer, fullAnswer);
  t.equal(feedReads, 1, 'the two that asked for the feed shared one read');
});

t.test('a subscriber that leaves while waiting is gone at once, and the others still hear the next event', async (t) => {
  const leaving = subscribeWs(withFeed);
  const staying = subscribeWs(withFeed);
  t.teardown(staying.close);
  await listening(env.deps, baseline + 2);
  await leaving.close();
  await drained(env.deps, baseline + 1);
  await publishOne('After one left');
  const [answer] = await staying.results.next(1);
  t.equal(answer?.data?.feedUpdate.feed?.id, feedId);
  t.same(leaving.results.results, [], 'the one that left heard nothing');
});
