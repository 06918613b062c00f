import t from 'tap';
import { createBullmqScheduler } from '../../src/adapters/bullmq/index.js';
import { createImportRedis, createRedisOpmlImportStore } from '../../src/adapters/redis-imports/opml-import-store.js';
import { buildHttpApp } from '../../src/http/app.js';
import { deliveryQueueHandler } from '../../src/jobs/delivery-queue.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';
import { removeTestQueue, requireRedis, testPrefix } from '../contract/redis-test-options.js';
import { sleep } from '../fixtures/eventually.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Cluster mode: two API replicas and a worker, each with its own Redis connections, over one
// store. The import is posted to the first replica, runs as a job on the worker, and the second
// replica reports it: progress lives in Redis, not in the process that took the request.
const url = await requireRedis();
const prefix = testPrefix();
const env = createTestDeps();
const source = await startRssSource(1);
const other = await startRssSource(1);
const redisClients = [1, 2, 3].map(() => createImportRedis(url, () => undefined));
const [firstRedis, secondRedis, workerRedis] = redisClients as [
  ReturnType<typeof createImportRedis>,
  ReturnType<typeof createImportRedis>,
  ReturnType<typeof createImportRedis>,
];
const queue = () => createBullmqScheduler({ connection: url, queue: 'delivery', prefix, concurrency: 2, retryDelay: retryDelayMs });
const [firstQueue, secondQueue, workerQueue] = [queue(), queue(), queue()];
const first = await buildHttpApp(
  { ...env.deps, imports: createRedisOpmlImportStore(firstRedis), deliveryScheduler: firstQueue },
  { httpsOnly: false },
);
const second = await buildHttpApp(
  { ...env.deps, imports: createRedisOpmlImportStore(secondRedis), deliveryScheduler: secondQueue },
  { httpsOnly: false },
);
await workerQueue.start(
  deliveryQueueHandler({ ...env.deps, imports: createRedisOpmlImportStore(workerRedis), deliveryScheduler: workerQueue }),
);
t.teardown(async () => {
  await first.close();
  await second.close();
  for (const scheduler of [firstQueue, secondQueue, workerQueue]) await scheduler.close();
  await removeTestQueue(url, prefix, 'delivery');
  for (const redis of redisClients) redis.disconnect();
  await source.close();
  await other.close();
  await env.close();
});

const alice = await env.bearer('alice');
const bob = await env.bearer('bob');

interface Status {
  id: string;
  status: string;
  total: number;
  done: number;
  outcomes: { xml_url: string; outcome: string; bundle: string | null }[];
}

t.test('an import posted to one API replica runs on the worker and is reported by the other replica', async (t) => {
  const opml = `<opml version="2.0"><body><outline text="News"><outline text="A" xmlUrl="${source.url}"/></outline><outline text="B" xmlUrl="${other.url}"/></body></opml>`;
  const started = await first.inject({
    method: 'POST',
    url: '/v1/opml',
    headers: { authorization: alice, 'content-type': 'text/x-opml' },
    payload: opml,
  });
  t.equal(started.statusCode, 202);
  const { id, total } = started.json<Status>();
  t.equal(total, 2);
  let status: Status | undefined;
  for (let polls = 0; polls < 500; polls++) {
    const response = await second.inject({ method: 'GET', url: `/api/v1/opml/imports/${id}`, headers: { authorization: alice } });
    t.equal(response.statusCode, 200, 'the other replica knows the import at once');
    status = response.json<Status>();
    if (status.status === 'finished') break;
    await sleep(50);
  }
  t.equal(status?.status, 'finished');
  t.same(
    status?.outcomes.map((outcome) => [outcome.xml_url, outcome.outcome, outcome.bundle]),
    [
      [source.url, 'created', 'News'],
      [other.url, 'created', null],
    ],
  );
  t.equal(status?.done, 2);
  const bundles = (await second.inject({ method: 'GET', url: '/v1/bundles', headers: { authorization: alice } })).json<{
    data: { name: string; feeds: string[] }[];
  }>();
  t.same(
    bundles.data.map((bundle) => [bundle.name, bundle.feeds.length]),
    [['News', 1]],
    'the worker made the bundle',
  );
  // Scope holds across replicas: another account's import is not found.
  const foreign = await first.inject({ method: 'GET', url: `/v1/opml/imports/${id}`, headers: { authorization: bob } });
  t.equal(foreign.statusCode, 404);
  t.equal(foreign.json<{ errors: { code: string }[] }>().errors[0]?.code, 'import_not_found');
});
