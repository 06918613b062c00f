import t from 'tap';
import { createLocalScheduler } from '../../src/adapters/local-scheduler/local-scheduler.js';
import { resumeSchedules } from '../../src/app/resume-schedules.js';
import { defaultFeedSettings, type Feed, type FetchState } from '../../src/domain/feed.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Start-up puts each feed's refresh back on the queue it runs on: with a refresh-render queue (cluster
// mode), a feed read through the browser goes there, not beside its real job on the plain queue.
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
