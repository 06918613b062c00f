import t from 'tap';
import { createLocalScheduler } from '../../src/adapters/local-scheduler/local-scheduler.js';
import { createFeed } from '../../src/app/create-feed.js';
import type { Principal } from '../../src/domain/api-key.js';
import type { FeedStore } from '../../src/ports/feed-store.js';
import { refreshFeedHandler } from '../../src/jobs/refresh-feed.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const renderScheduler = createLocalScheduler({ retryDelay: retryDelayMs });
const source = await startRssSource(1);
t.teardown(async () => {
  await renderScheduler.close();
  await source.close();
  await env.close();
});
const alice: Principal = { accountId: 'alice', keyId: 'key-alice', scopes: ['read', 'write'] };

t.test('in cluster mode a refresh job reads its feed once: the queue check and the refresh share the read', async (t) => {
  const { feed } = await createFeed(env.deps, alice, { url: source.url });
  const read: string[] = [];
  // Every method of the store as it is, getById counted.
  const feeds: FeedStore = Object.create(env.deps.feeds) as FeedStore;
  feeds.getById = async (id) => {
    read.push(id);
    return env.deps.feeds.getById(id);
  };
  source.addItem('A second item');
  const handler = refreshFeedHandler({ ...env.deps, feeds, renderScheduler }, { info: () => undefined });
  const next = await handler({ id: feed.id });
  t.ok(next instanceof Date, 'refreshed, with a next run');
  t.same(read, [feed.id], 'one read of the feed');
  t.equal((await env.deps.items.list(feed.id, 'last_added', 10)).length, 2, 'the new item is stored');
});
