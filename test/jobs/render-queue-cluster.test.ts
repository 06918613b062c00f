import t from 'tap';
import { Queue } from 'bullmq';
import { createBullmqScheduler } from '../../src/adapters/bullmq/index.js';
import { createUndiciFetcher } from '../../src/adapters/undici/fetcher.js';
import { buildHttpApp } from '../../src/http/app.js';
import { scheduleRefresh } from '../../src/app/refresh-queue.js';
import type { AppDeps } from '../../src/app/deps.js';
import { startRefreshQueues } from '../../src/jobs/refresh-feed.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';
import { removeTestQueue, requireRedis, testPrefix } from '../contract/redis-test-options.js';
import { testRenderer } from '../adapters/chromium/render-fixtures.js';
import { chromiumExecutable } from '../fixtures/browser.js';
import { eventually } from '../fixtures/eventually.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

async function main(chromiumPath: string): Promise<void> {
  // Cluster mode over one store and one Redis: an API process, a worker without a browser and a
  // worker with one, each with its own queue connections. A feed that needs a browser is only ever
  // refreshed by the worker that has one.
  const url = await requireRedis();
  const prefix = testPrefix();
  const env = createTestDeps();
  const source = await startRssSource(1);
  // A web page: only a page is ever rendered (a native feed never needs the browser, whatever its `render`).
  const posts = ['The analytical engine', 'Notes on the difference engine', 'Punched cards for looms', 'A first program'];
  const listing = `<!doctype html><html><head><title>Engine notes</title></head><body><main><ul>${posts
    .map(
      (post, i) =>
        `<li class="post"><h2><a href="/posts/${i}">${post}</a></h2><p>A post about ${post.toLowerCase()}, told at length.</p></li>`,
    )
    .join('')}</ul></main></body></html>`;
  const page = await startFixtureServer((_request, response) => void response.writeHead(200, { 'content-type': 'text/html' }).end(listing));
  const renderer = testRenderer(chromiumPath, createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 5_000 }));
  const queues = () => ({
    scheduler: createBullmqScheduler({ connection: url, queue: 'refresh', prefix, retryDelay: retryDelayMs }),
    renderScheduler: createBullmqScheduler({ connection: url, queue: 'refresh-render', prefix, retryDelay: retryDelayMs }),
  });
  const api = { ...env.deps, ...queues(), renderer };
  const plain: AppDeps = { ...env.deps, ...queues() };
  const rendering: AppDeps = { ...env.deps, ...queues(), renderer };
  const app = await buildHttpApp(api, { httpsOnly: false });
  const renderQueue = new Queue('refresh-render', { connection: { url }, prefix });

  /** What one worker's refresh jobs said, as `message feedId` lines. */
  const journal = (): { lines: string[]; log: { info(fields: Record<string, unknown>, message: string): void } } => {
    const lines: string[] = [];
    return { lines, log: { info: (fields, message) => void lines.push(`${message} ${String(fields['feedId'])}`) } };
  };
  const plainLog = journal();
  const renderLog = journal();

  t.teardown(async () => {
    await app.close();
    for (const deps of [api, plain, rendering]) {
      await deps.scheduler.close();
      await deps.renderScheduler?.close();
    }
    await renderQueue.close();
    await removeTestQueue(url, prefix, 'refresh');
    await removeTestQueue(url, prefix, 'refresh-render');
    await renderer.close();
    await source.close();
    await page.close();
    await env.close();
  });

  const alice = await env.bearer('alice');
  const create = async (body: Record<string, unknown>): Promise<string> => {
    const response = await app.inject({ method: 'POST', url: '/v1/feeds', headers: { authorization: alice }, payload: body });
    if (response.statusCode !== 200) throw new Error(`Expected the feed to be created, got ${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  };
  const plainId = await create({ url: source.url });
  const renderId = await create({ url: `${page.url}/list`, render: 'always' });
  const due = async (id: string): Promise<void> => {
    const feed = await env.deps.feeds.getById(id);
    if (!feed) throw new Error(`Expected feed ${id} in the store`);
    await scheduleRefresh(api, feed, new Date());
  };

  t.test('a worker without a browser never takes a refresh that needs one', async (t) => {
    t.not(renderId, plainId, 'two feeds');
    t.equal(await startRefreshQueues(plain, plainLog.log), false, 'no renderer: the refresh-render queue is not taken');
    await due(renderId);
    await due(plainId);
    await eventually(
      10_000,
      async () => plainLog.lines.includes(`feed refreshed ${plainId}`),
      () => `the plain feed's refresh on the plain worker; it said ${plainLog.lines.join(', ')}`,
      50,
    );
    // Delayed or waiting: with no worker on refresh-render, nothing even promotes its due jobs.
    t.match(await renderQueue.getJobState(renderId), /^(waiting|delayed)$/, 'the rendered feed waits on refresh-render');
    t.notOk(
      plainLog.lines.some((line) => line.endsWith(renderId)),
      'the plain worker never saw it',
    );
  });

  t.test('a refresh that needs a browser found on the plain queue is moved, not run', async (t) => {
    // As resumeSchedules does at start-up: every feed on the plain queue.
    await plain.scheduler.schedule(renderId, new Date());
    await eventually(
      10_000,
      async () => plainLog.lines.includes(`feed refresh moved to the other queue ${renderId}`),
      () => `the move; the plain worker said ${plainLog.lines.join(', ')}`,
      50,
    );
    t.notOk(plainLog.lines.includes(`feed refreshed ${renderId}`), 'the plain worker did not refresh it');
    t.match(await renderQueue.getJobState(renderId), /^(waiting|delayed)$/, 'it still waits on refresh-render');
  });

  t.test('a worker with a browser takes it', async (t) => {
    t.equal(await startRefreshQueues(rendering, renderLog.log), true, 'a renderer: the refresh-render queue is taken');
    await eventually(
      20_000,
      async () => renderLog.lines.includes(`feed refreshed ${renderId}`),
      () => `the rendered feed's refresh on the rendering worker; it said ${renderLog.lines.join(', ')}`,
      50,
    );
    t.notOk(plainLog.lines.includes(`feed refreshed ${renderId}`), 'never on the plain worker');
  });
}

// Without a browser there is no renderer to serve the queue: skipped, as the other browser tests are
// (CI sets FEEDMILL_REQUIRE_BROWSER, so it never skips there).
const chromium = chromiumExecutable();
if ('skip' in chromium) t.pass(`skipped: ${chromium.skip}`);
else await main(chromium.path);
