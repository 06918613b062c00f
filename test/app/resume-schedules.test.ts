import t from 'tap';
import { createLocalScheduler } from '../../src/adapters/local-scheduler/local-scheduler.js';
import { resumeArticles } from '../../src/app/article-jobs.js';
import { resumeSchedules, walkPageSize } from '../../src/app/resume-schedules.js';
import { defaultFeedSettings, type Feed, type FetchState } from '../../src/domain/feed.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';
import type { ItemStore } from '../../src/ports/item-store.js';
import { articleOf } from '../fixtures/item-article.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Start-up puts each feed's refresh back on the queue it runs on: with a refresh-render queue (cluster
// mode), a feed read through the browser goes there, not beside its real job on the plain queue. And
// it resumes the article fetches still owed, asking for the articles of only the feeds that have any
// and listing no feed for them: at 100,000 feeds a query for each was most of a worker's start
// (bench/README.md "scale"), and the listing as long as the schedules' own walk.
const env = createTestDeps();
const renderScheduler = createLocalScheduler({ retryDelay: retryDelayMs });
t.teardown(async () => {
  await renderScheduler.close();
  await env.close();
});

const feed = (id: string, fetch: FetchState): Feed => ({
  id,
  accountId: 'acct-1',
  title: id,
  description: '',
  icon: '',
  sourceUrl: `https://example.com/${id}`,
  fetchUrl: `https://example.com/${id}`,
  link: 'https://example.com/',
  createdAt: '2024-03-01T00:00:00.000Z',
  updatedAt: '2024-03-01T00:00:00.000Z',
  settings: defaultFeedSettings,
  fetch,
});
const later = new Date(env.deps.clock.now().getTime() + 3_600_000).toISOString();
await env.deps.feeds.insert(feed('plain-feed', { errorCount: 0, unchangedStreak: 0, nextFetchAt: later }));
await env.deps.feeds.insert(feed('page-feed', { errorCount: 0, unchangedStreak: 0, nextFetchAt: later, reader: 'page' }));
await env.deps.feeds.insert(
  feed('rendered-feed', { errorCount: 0, unchangedStreak: 0, nextFetchAt: later, reader: 'page', rendered: true }),
);

t.test('a rendered feed is resumed on the refresh-render queue, the others on the plain one, once each', async (t) => {
  const deps = { ...env.deps, renderScheduler };
  t.equal(await resumeSchedules(deps), 3, 'every live feed read');
  t.equal(env.deps.scheduler.size, 2, 'the feed and the page read as served: on the plain queue');
  t.equal(renderScheduler.size, 1, 'the rendered page: on refresh-render');
  await resumeSchedules(deps);
  t.equal(env.deps.scheduler.size, 2, 'a second start places nothing more');
  t.equal(renderScheduler.size, 1);
});

t.test('with no article records anywhere, the feeds are not even listed', async (t) => {
  let listed = 0;
  const feeds = {
    ...env.deps.feeds,
    dueFeeds: (pageSize: number) => {
      listed += 1;
      return env.deps.feeds.dueFeeds(pageSize);
    },
  };
  t.equal(await resumeArticles({ ...env.deps, feeds }), 0, 'nothing to resume');
  t.equal(listed, 0, 'no walk of every feed');
});

t.test('the pending articles get their jobs; only feeds with article records are read, and no feed is listed', async (t) => {
  for (const id of ['waiting', 'settled', 'without', 'gone']) await env.deps.feeds.insert(feed(id, { errorCount: 0, unchangedStreak: 0 }));
  await env.deps.items.saveArticle('waiting', 'g:1', articleOf());
  await env.deps.items.saveArticle('waiting', 'g:2', articleOf({ status: 'ok', announced: true }));
  await env.deps.items.saveArticle('settled', 'g:1', articleOf({ status: 'failed', announced: true }));
  await env.deps.items.saveArticle('gone', 'g:1', articleOf());
  t.ok(await env.deps.feeds.markDeleted('acct-1', 'gone', later), 'a deleted feed whose article records are not swept yet');
  const asked: string[] = [];
  const items: ItemStore = {
    ...env.deps.items,
    articles: (feedId) => {
      asked.push(feedId);
      return env.deps.items.articles(feedId);
    },
  };
  const lookedUp: string[] = [];
  let listed = 0;
  const feeds = {
    ...env.deps.feeds,
    getById: (feedId: string) => {
      lookedUp.push(feedId);
      return env.deps.feeds.getById(feedId);
    },
    dueFeeds: (pageSize: number) => {
      listed += 1;
      return env.deps.feeds.dueFeeds(pageSize);
    },
  };
  t.equal(await resumeArticles({ ...env.deps, items, feeds }), 1, 'the one article still pending on a live feed');
  t.equal(env.deps.articleScheduler.size, 1, 'has its job; the deleted feed’s has none');
  t.same(asked.sort(), ['gone', 'settled', 'waiting'], 'the feeds without article records were not asked');
  t.same(lookedUp.sort(), ['gone', 'waiting'], 'only a feed with an article owed is looked up');
  t.equal(listed, 0, 'no walk of every feed');
  await resumeArticles({ ...env.deps, items });
  t.equal(env.deps.articleScheduler.size, 1, 'a second start places nothing more');
});

t.test('a walk told to stop (a SIGTERM during the start) ends after the page it is on; the next walk does the rest', async (t) => {
  const deps = { ...env.deps, renderScheduler };
  for (let n = 0; n < 2_500; n += 1)
    await env.deps.feeds.insert(feed(`bulk-${String(n).padStart(4, '0')}`, { errorCount: 0, unchangedStreak: 0 }));
  const before = env.deps.scheduler.size + renderScheduler.size;
  t.equal(await resumeSchedules(deps, AbortSignal.abort()), walkPageSize, 'one page walked');
  const afterOne = env.deps.scheduler.size + renderScheduler.size;
  t.ok(afterOne - before > 0 && afterOne - before <= walkPageSize, `at most a page of jobs placed (${afterOne - before})`);
  const live = await resumeSchedules(deps);
  t.ok(live > 2_500, `then every live feed (${live})`);
  t.equal(env.deps.scheduler.size + renderScheduler.size, live, 'each with its one job');
});

t.test('the article walk told to stop ends before its next feed; the next start schedules them all', async (t) => {
  const before = env.deps.articleScheduler.size;
  const owing = Array.from({ length: 1_200 }, (_, i) => `owing-${String(i).padStart(5, '0')}`);
  for (const id of owing) {
    await env.deps.feeds.insert(feed(id, { errorCount: 0, unchangedStreak: 0 }));
    await env.deps.items.saveArticle(id, 'g:1', articleOf());
  }
  const stopping = new AbortController();
  let read = 0;
  const items: ItemStore = {
    ...env.deps.items,
    articles: (feedId) => {
      // The signal lands while the walk is on its third feed.
      if (++read === 3) stopping.abort();
      return env.deps.items.articles(feedId);
    },
  };
  const first = await resumeArticles({ ...env.deps, items }, false, stopping.signal);
  t.equal(read, 3, 'no feed read after the signal');
  t.ok(first <= 3, `at most the feeds read got their jobs (${first})`);
  t.equal(env.deps.articleScheduler.size - before, first, 'each a job');
  await resumeArticles(env.deps);
  t.equal(env.deps.articleScheduler.size - before, owing.length, 'then every feed’s article has its job, once');
});
