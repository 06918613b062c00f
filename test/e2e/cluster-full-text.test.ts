import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually, sleep } from '../fixtures/eventually.js';
import { clusterEnv, freePort, startWorker, type WorkerProcess } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startRedisServer } from '../fixtures/redis-server.js';
import { startTeaserSource } from '../fixtures/teaser-source.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

/**
 * Full text in cluster mode (issue #26, "a worker killed mid-fetch loses nothing"): one `feedmill
 * api` and one `feedmill worker` on real Cassandra and a Redis of the test's own. The worker is
 * killed while the article page of a new item is held open; the item stays pending and
 * unannounced, a second worker takes the job once its lock runs out, fetches the page again, and
 * the item is announced exactly once, with its article.
 */
t.setTimeout(300_000);

const lockTimeout = 3;
const run = randomBytes(4).toString('hex');
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-cluster-full-text-'));

// A `held-` article page is not answered the first time it is asked for.
const source = await startTeaserSource(['alpha']);
const { items, articleRequests } = source;
const redis = await startRedisServer();
const sink = await startWebhookSink();
const env = {
  ...clusterEnv({ dataDir, keyspace: `full_text_${run}`, redisUrl: redis.url }),
  FEEDMILL_PORT: String(await freePort()),
  FEEDMILL_POLL_MIN_INTERVAL: '1',
  FEEDMILL_POLL_MAX_INTERVAL: '2',
  // A killed worker's job is taken again within about twice this.
  FEEDMILL_JOB_LOCK_TIMEOUT: String(lockTimeout),
  // Long enough that no item is announced with its teaser for want of its article.
  FEEDMILL_FULL_TEXT_MAX_WAIT: '600',
  FEEDMILL_FULL_TEXT_HOST_PAUSE: '0',
  FEEDMILL_FETCH_TIMEOUT: '120',
};
const withMetricsPort = async (): Promise<Record<string, string>> => ({ ...env, FEEDMILL_METRICS_PORT: String(await freePort()) });

// The API first: it applies the migrations the worker then finds done.
const { service: api, call } = await startServiceAs(await withMetricsPort(), 'alice', 'api');
const workers: WorkerProcess[] = [await startWorker(await withMetricsPort())];
t.teardown(async () => {
  await api.stop('SIGKILL');
  for (const worker of workers) await worker.stop('SIGKILL');
  await redis.stop();
  await source.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface ApiItem {
  url: string;
  description_text: string;
  full_text_status: string;
}

const hook = await call('POST', '/v1/webhooks', { url: sink.url });
const created = await call('POST', '/v1/feeds', { url: source.feedUrl });
const feedId = (created.json as { id: string }).id;

let latest = new Map<string, ApiItem>();
const until = async (what: string, check: (items: Map<string, ApiItem>) => boolean, timeoutMs = 60_000): Promise<void> =>
  eventually(
    timeoutMs,
    async () => {
      const feed = (await call('GET', `/v1/feeds/${feedId}`)).json as { items: ApiItem[] };
      latest = new Map(feed.items.map((item) => [item.url.split('/').at(-1) ?? '', item]));
      return check(latest);
    },
    () => `${what}; items: ${JSON.stringify([...latest.values()].map((item) => [item.url, item.full_text_status]))}`,
  );

/** Every `items_new` entry the webhook received for `slug`. */
const announced = (slug: string): { description_text: string }[] =>
  sink.calls.flatMap((received) => {
    const event = JSON.parse(received.body) as { data?: { items_new?: { url: string; description_text: string }[] } };
    return (event.data?.items_new ?? []).filter((item) => item.url.endsWith(`/articles/${slug}`));
  });

t.test('full text on in a cluster: the fill is fetched by the worker', async (t) => {
  t.equal(hook.status, 200, hook.text);
  t.equal(created.status, 200, created.text);
  const patched = await call('PATCH', `/v1/feeds/${feedId}/settings`, { full_text: true });
  t.equal(patched.status, 200, patched.text);
  await until('alpha has its article', (items) => items.get('alpha')?.full_text_status === 'ok');
  t.match(latest.get('alpha')?.description_text, /ARTICLE-BODY-alpha/);
});

t.test('a worker killed mid-fetch: the item stays pending and unannounced', async (t) => {
  items.unshift('held-one');
  await eventually(
    60_000,
    async () => articleRequests.get('held-one') === 1,
    () => 'the worker never asked for the held page',
  );
  await until('held-one is in, pending', (items) => items.get('held-one')?.full_text_status === 'pending');
  t.equal(await workers[0]?.stop('SIGKILL'), null, 'the worker was killed while the page was held open');
  // Past the job's lock and the stalled check, with no worker to take the job: nothing moves.
  await sleep(2 * lockTimeout * 1000 + 1_000);
  await until('held-one is still pending', (items) => items.get('held-one')?.full_text_status === 'pending');
  t.match(latest.get('held-one')?.description_text, /TEASER-held-one/, 'it shows its teaser meanwhile');
  t.same(announced('held-one'), [], 'it is not announced');
});

t.test('a second worker takes the job, fetches the page again, and announces the item once, with its article', async (t) => {
  workers.push(await startWorker(await withMetricsPort()));
  await until('held-one has its article', (items) => items.get('held-one')?.full_text_status === 'ok', 90_000);
  t.match(latest.get('held-one')?.description_text, /ARTICLE-BODY-held-one/);
  t.equal(articleRequests.get('held-one'), 2, 'the page was fetched again, once');
  await eventually(
    30_000,
    async () => announced('held-one').length > 0,
    () => 'held-one was never announced',
  );
  // Time for a second announcement, were one coming: a refresh or two and the stalled check.
  await sleep(2 * lockTimeout * 1000 + 2_000);
  const announcements = announced('held-one');
  t.equal(announcements.length, 1, 'announced exactly once');
  t.match(announcements[0]?.description_text, /ARTICLE-BODY-held-one/, 'with its article');
  t.notMatch(announcements[0]?.description_text, /TEASER/, 'never with the teaser first');
  t.same(announced('alpha'), [], 'the fill announced nothing');
});
