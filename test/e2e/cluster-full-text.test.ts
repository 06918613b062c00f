import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { eventually, sleep } from '../fixtures/eventually.js';
import { freePort, runCommand, startFeedmill, startWorker, type WorkerProcess } from '../fixtures/feedmill-process.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { startRedisServer } from '../fixtures/redis-server.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

/**
 * Full text in cluster mode (issue #26, "a worker killed mid-fetch loses nothing"): one `feedmill
 * api` and one `feedmill worker` on real Cassandra and a Redis of the test's own. The worker is
 * killed while the article page of a new item is held open; the item stays pending and
 * unannounced, a second worker takes the job once its lock runs out, fetches the page again, and
 * the item is announced exactly once, with its article.
 */
const contactPoints = process.env.FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS;
if (!contactPoints) throw new Error('FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS is not set: run the tests with `npm test`');
t.setTimeout(300_000);

const lockTimeout = 3;
const run = randomBytes(4).toString('hex');
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-cluster-full-text-'));

const articlePage = (slug: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${slug} | The Courier</title></head>
<body><nav><a href="/news">BOILER-NAV news</a></nav>
<main><article><h1>The story of ${slug}</h1>
<p>ARTICLE-BODY-${slug}: the harbour council met on Tuesday evening and, after three hours of debate, voted to keep the ferry running through the winter months.</p>
<p>Residents had gathered signatures for weeks; the vote was close, and the council will review the timetable again in spring, when the new boat is due to arrive.</p>
</article></main><footer>BOILER-FOOTER</footer></body></html>`;

/** Items of the source, newest first. The first request for a `held-` page is held open, never answered. */
const items: string[] = ['alpha'];
const articleRequests = new Map<string, number>();
const held: ServerResponse[] = [];
const source = await startFixtureServer((request, response) => {
  const path = request.url ?? '/';
  if (path === '/feed.xml') {
    const entries = items
      .map(
        (slug) =>
          `<item><title>${slug}</title><link>${source.url}/articles/${slug}</link><guid>urn:${slug}</guid><description>TEASER-${slug}</description></item>`,
      )
      .join('');
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(`<rss version="2.0"><channel><title>Teasers</title><link>${source.url}/</link>${entries}</channel></rss>`);
  }
  const slug = /^\/articles\/([a-z0-9-]+)$/.exec(path)?.[1];
  if (!slug) return void response.writeHead(404).end();
  const count = (articleRequests.get(slug) ?? 0) + 1;
  articleRequests.set(slug, count);
  if (slug.startsWith('held') && count === 1) return void held.push(response);
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(articlePage(slug));
});
const redis = await startRedisServer();
const sink = await startWebhookSink();
const env = {
  FEEDMILL_PORT: String(await freePort()),
  FEEDMILL_DATA_DIR: dataDir,
  FEEDMILL_STORE: 'cassandra',
  FEEDMILL_CASSANDRA_CONTACT_POINTS: contactPoints,
  FEEDMILL_CASSANDRA_KEYSPACE: `full_text_${run}`,
  FEEDMILL_CASSANDRA_CONSISTENCY: 'ONE',
  FEEDMILL_REDIS_URL: redis.url,
  FEEDMILL_SECRET_KEY: randomBytes(32).toString('base64'),
  FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'true',
  FEEDMILL_POLL_MIN_INTERVAL: '1',
  FEEDMILL_POLL_MAX_INTERVAL: '2',
  // A killed worker's job is taken again within about twice this.
  FEEDMILL_JOB_LOCK_TIMEOUT: String(lockTimeout),
  // Long enough that no item is announced with its teaser for want of its article.
  FEEDMILL_FULL_TEXT_MAX_WAIT: '600',
  FEEDMILL_FULL_TEXT_HOST_PAUSE: '0',
  FEEDMILL_FETCH_TIMEOUT: '120',
  FEEDMILL_PARSER_THREADS: '1',
  FEEDMILL_RATE_LIMIT: '1000000',
  FEEDMILL_LOG_LEVEL: 'warn',
};
const withMetricsPort = async (): Promise<Record<string, string>> => ({ ...env, FEEDMILL_METRICS_PORT: String(await freePort()) });

// The API first: it applies the migrations the worker then finds done.
const api = await startFeedmill(await withMetricsPort(), 'api');
const workers: WorkerProcess[] = [await startWorker(await withMetricsPort())];
t.teardown(async () => {
  await api.stop('SIGKILL');
  for (const worker of workers) await worker.stop('SIGKILL');
  for (const response of held) response.destroy();
  await redis.stop();
  await source.close();
  await sink.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const pair = JSON.parse(
  (await runCommand(['keys', 'create', '--account', 'alice', '--scopes', 'read,write', '--json'], env)).trim().split('\n').at(-1) ?? '',
) as { key: string; secret: string };
const authorization = `Bearer ${pair.key}:${pair.secret}`;
const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }> => {
  const response = await api.call(method, path, { authorization, ...(body === undefined ? {} : { body }) });
  return { status: response.status, json: JSON.parse(response.text) as unknown, text: response.text };
};

interface ApiItem {
  url: string;
  description_text: string;
  full_text_status: string;
}

const hook = await call('POST', '/v1/webhooks', { url: sink.url });
const created = await call('POST', '/v1/feeds', { url: `${source.url}/feed.xml` });
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
