import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { openEmbeddedStore } from '../../src/adapters/embedded-store/index.js';
import { createRedisChangeBus } from '../../src/adapters/redis-bus/index.js';
import { sharedFeedStore } from '../../src/caches/shared-feed-store.js';
import type { FetchState } from '../../src/domain/feed.js';
import type { ChangeNotice } from '../../src/ports/change-bus.js';
import type { FeedStore } from '../../src/ports/feed-store.js';
import { feedFixture } from '../contract/store-feeds.js';
import { requireRedis } from '../contract/redis-test-options.js';
import { eventually } from '../fixtures/eventually.js';
import { repoRoot } from '../fixtures/repo-root.js';

// A worker and an API replica of one deployment, as compose.ts wires them: each its own change bus
// on a real Redis, one SQLite store standing in for the Cassandra both would share.
const redisUrl = await requireRedis();
const clock = { now: () => new Date() };
const ns = (name: string): string => `${name}-${randomBytes(4).toString('hex')}`;

/** The store behind both processes, counting the API's reads of a feed. */
function countedStore(t: Test): FeedStore & { reads: number; failNextSave: boolean } {
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-shared-feeds-'));
  const store = openEmbeddedStore({ file: join(dir, 'feedmill.db'), schemaDir: join(repoRoot, 'schema', 'embedded') });
  t.teardown(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const counted = {
    ...store.feeds,
    reads: 0,
    failNextSave: false,
    async get(accountId: string, feedId: string) {
      counted.reads++;
      return store.feeds.get(accountId, feedId);
    },
    async getById(feedId: string) {
      counted.reads++;
      return store.feeds.getById(feedId);
    },
    async saveFetchState(feedId: string, state: FetchState, fetchUrl: string) {
      await store.feeds.saveFetchState(feedId, state, fetchUrl);
      if (counted.failNextSave) {
        counted.failNextSave = false;
        throw new Error('the store did not answer (the write was applied)');
      }
    },
  };
  return counted;
}

/** A worker (no cache) and an API (with one) on a channel of their own, and what a raw subscriber of that channel hears. */
async function deployment(t: Test) {
  const channel = ns('feedmill:changes:test');
  const store = countedStore(t);
  const onError = (error: unknown): void => void t.fail(String(error));
  const workerBus = createRedisChangeBus({ url: redisUrl, channel, onError });
  const apiBus = createRedisChangeBus({ url: redisUrl, channel, onError });
  const raw = new Redis(redisUrl);
  const messages: unknown[] = [];
  raw.on('message', (_from: string, message: string) => void messages.push(JSON.parse(message)));
  await raw.subscribe(channel);
  const notices: ChangeNotice[] = [];
  apiBus.subscribe((notice) => void notices.push(notice));
  t.teardown(async () => {
    await Promise.all([workerBus.close(), apiBus.close()]);
    await raw.quit();
  });
  await Promise.all([workerBus.ready(), apiBus.ready()]);
  const worker = sharedFeedStore(store, workerBus, clock);
  const api = sharedFeedStore(store, apiBus, clock, {});
  const publisher = new Redis(redisUrl);
  t.teardown(() => publisher.quit());
  return { store, worker, api, apiBus, messages, notices, channel, publisher };
}

const heard = (what: () => number, count: number, label: string): Promise<void> =>
  eventually(
    3000,
    async () => what() >= count,
    () => `waiting for ${label}`,
    5,
  );

t.test('a fetch state saved by a worker is taken into the API cache in place: the next reads come from memory', async (t) => {
  const { store, worker, api, messages, notices } = await deployment(t);
  const feed = feedFixture({ ns });
  await worker.insert(feed);
  await heard(() => notices.length, 1, 'the insert notice');
  t.equal((await api.getById(feed.id))?.fetch.errorCount, 0);
  t.equal((await api.get(feed.accountId, feed.id)).state, 'present');
  t.equal(store.reads, 2, 'one read per view');

  const fetch: FetchState = { errorCount: 0, unchangedStreak: 3, etag: '"v2"', lastStatus: 'unchanged' };
  await worker.saveFetchState(feed.id, fetch, 'https://example.com/moved.xml');
  await heard(() => notices.length, 2, 'the fetch-state notice');
  const byId = await api.getById(feed.id);
  const byAccount = await api.get(feed.accountId, feed.id);
  t.same(byId?.fetch, fetch, 'the new state, by id');
  t.equal(byId?.fetchUrl, 'https://example.com/moved.xml');
  t.same(byAccount.state === 'present' ? byAccount.feed.fetch : undefined, fetch, 'and in the account view');
  t.equal(byAccount.state === 'present' ? byAccount.feed.title : undefined, feed.title, 'the rest of the record kept');
  t.equal(store.reads, 2, 'no read of the store after the refresh');
  t.same(notices[1], { feeds: [], keys: [], fetchStates: [{ feedId: feed.id, fetchUrl: 'https://example.com/moved.xml', fetch }] });
  // A process of the release before fetch states travelled reads only `f`, and so drops the feed.
  t.same(messages[1], { f: [feed.id], k: [], s: [[feed.id, 'https://example.com/moved.xml', fetch]] });
});

t.test('a fetch-state write that failed is announced as a drop, and the API reads the feed again', async (t) => {
  const { store, worker, api, messages, notices } = await deployment(t);
  const feed = feedFixture({ ns });
  await worker.insert(feed);
  await api.getById(feed.id);
  store.failNextSave = true;
  await t.rejects(worker.saveFetchState(feed.id, { errorCount: 1, unchangedStreak: 0 }, feed.fetchUrl));
  await heard(() => notices.length, 2, 'the drop');
  t.same(messages[1], { f: [feed.id], k: [] }, 'no state travels: the write may not have been applied');
  t.equal((await api.getById(feed.id))?.fetch.errorCount, 1);
  t.equal(store.reads, 2, 'read again');
});

t.test('a deleted feed is read again after a fetch-state notice, and any other change to a feed drops it', async (t) => {
  const { store, worker, api, notices } = await deployment(t);
  const feed = feedFixture({ ns });
  await worker.insert(feed);
  await api.markDeleted(feed.accountId, feed.id, new Date().toISOString());
  t.equal((await api.get(feed.accountId, feed.id)).state, 'deleted');
  const reads = store.reads;
  await worker.saveFetchState(feed.id, { errorCount: 0, unchangedStreak: 1 }, feed.fetchUrl);
  await heard(() => notices.length, 3, 'the fetch-state notice');
  t.equal((await api.get(feed.accountId, feed.id)).state, 'deleted');
  t.equal(store.reads, reads + 1, 'a deleted lookup cannot take a fetch state: read again');

  const other = feedFixture({ ns });
  await worker.insert(other);
  await api.getById(other.id);
  await worker.update(other.accountId, other.id, { title: 'Renamed' }, new Date().toISOString());
  await heard(() => notices.length, 5, 'the update notice');
  t.equal((await api.getById(other.id))?.title, 'Renamed');
});

t.test('a feed dropped and saved in one tick goes out as a drop; a malformed state is a drop', async (t) => {
  const { apiBus, messages, notices, channel, publisher } = await deployment(t);
  const fetch: FetchState = { errorCount: 0, unchangedStreak: 0 };
  await Promise.all([
    apiBus.publish({ fetchStates: [{ feedId: 'feed_a', fetch, fetchUrl: 'https://example.com/a' }] }),
    apiBus.publish({ feeds: ['feed_a'] }),
    apiBus.publish({ fetchStates: [{ feedId: 'feed_b', fetch, fetchUrl: 'https://example.com/b' }] }),
  ]);
  await heard(() => notices.length, 1, 'the notice');
  t.same(messages[0], { f: ['feed_a', 'feed_b'], k: [], s: [['feed_b', 'https://example.com/b', fetch]] }, 'one message');
  t.same(notices[0], { feeds: ['feed_a'], keys: [], fetchStates: [{ feedId: 'feed_b', fetchUrl: 'https://example.com/b', fetch }] });

  await publisher.publish(
    channel,
    JSON.stringify({
      f: ['feed_c', 'feed_d'],
      s: [
        ['feed_c', 42, fetch],
        ['feed_d', 'https://example.com/d', null],
      ],
    }),
  );
  await heard(() => notices.length, 2, 'the malformed notice');
  t.same(notices[1], { feeds: ['feed_c', 'feed_d'], keys: [], fetchStates: [] });
});
