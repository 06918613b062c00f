import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as plainRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Agent } from 'undici';
import { createFeedmillClient, type Schemas } from '../../src/client/index.js';
import { binaryEnv, freePort, runCommand, startFeedmill, startWorker, type WorkerProcess } from '../fixtures/feedmill-process.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { startRssSource } from '../fixtures/rss-source.js';

/**
 * The README walk-through, against the real binary over HTTPS, with a source on 127.0.0.1; run by
 * one test file per store engine (`storeEnv` selects it). `roles: 'split'` runs `feedmill api` and
 * `feedmill worker` as two processes instead of `feedmill all`.
 */
export async function readmeFlow(storeEnv: Record<string, string>, roles: 'all' | 'split' = 'all'): Promise<void> {
  // Several real processes and restarts: past tap's default per-file time on a loaded 2-core CI machine.
  t.setTimeout(300_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-'));
  const port = await freePort();
  const metricsPort = await freePort();
  const env = { ...(await binaryEnv(dataDir, { port, metricsPort })), ...storeEnv };
  const source = await startRssSource(2);
  const apiRole = roles === 'split' ? 'api' : 'all';
  let service = await startFeedmill(env, apiRole);
  const workerMetricsPort = await freePort();
  // Started once the API has written the shared files of the data directory (certificate, secret key).
  const worker: WorkerProcess | undefined =
    roles === 'split' ? await startWorker({ ...env, FEEDMILL_METRICS_PORT: String(workerMetricsPort) }) : undefined;
  t.teardown(async () => {
    await service.stop('SIGKILL');
    await worker?.stop('SIGKILL');
    await source.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const created = JSON.parse(
    (await runCommand(['keys', 'create', '--account', 'alice', '--scopes', 'read,write', '--json'], env)).trim().split('\n').at(-1) ?? '',
  ) as {
    key: string;
    secret: string;
    account: string;
    scopes: string[];
  };
  // The REST calls go through the typed client (feedmill/client), so it is proven against the binary
  // on every run; the certificate the first start wrote is the one every restart reuses.
  const agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8') } });
  t.teardown(() => agent.close());
  const api = createFeedmillClient({ baseUrl: service.baseUrl, key: created.key, secret: created.secret, dispatcher: agent });
  const getFeed = (id: string) => api.GET('/v1/feeds/{id}', { params: { path: { id } } });
  const feedTotal = async (): Promise<number | undefined> => (await api.GET('/v1/feeds')).data?.total;

  let feed: Schemas['FeedWithItems'];
  let bundleId = '';
  const bundleTitles = async (): Promise<string[]> =>
    (await api.GET('/v1/bundles/{id}', { params: { path: { id: bundleId } } })).data?.items.map((item) => item.title) ?? [];

  t.test('keys create --json prints the pair as its last line', async (t) => {
    t.match(created, { account: 'alice', scopes: ['read', 'write'] });
    t.match(created.key, /^fmk_/);
    t.ok(created.secret.length >= 32, 'the secret is long');
    const listed = await runCommand(['keys', 'list', '--json'], env);
    t.notMatch(listed, created.secret, 'the secret is never shown again');
    if (storeEnv.FEEDMILL_STORE !== 'cassandra') {
      t.notMatch(readFileSync(join(dataDir, 'feedmill.sqlite')).toString('latin1'), created.secret, 'the store holds no plain secret');
    }
  });

  t.test('a native feed becomes a hosted feed over HTTPS', async (t) => {
    const { data, error, response } = await api.POST('/v1/feeds', { body: { url: source.url } });
    t.equal(response.status, 200, JSON.stringify(error));
    if (!data) throw new Error('no feed in the answer');
    feed = data;
    t.same(
      feed.items.map((item) => item.title),
      ['Post 2', 'Post 1'],
    );
    t.equal(feed.rss_feed_url, `https://localhost:${port}/feeds/${feed.id}.xml`);
    const file = `${feed.id}.xml`;
    const hosted = await api.GET('/feeds/{file}', { params: { path: { file } }, parseAs: 'text' });
    t.equal(hosted.response.status, 200);
    t.match(hosted.data, /<rss version="2.0"/);
    const etag = String(hosted.response.headers.get('etag'));
    const again = await api.GET('/feeds/{file}', { params: { path: { file } }, headers: { 'if-none-match': etag }, parseAs: 'text' });
    t.equal(again.response.status, 304);
    const bundle = await api.POST('/v1/bundles', { body: { name: 'Morning', feeds: [feed.id] } });
    t.equal(bundle.response.status, 200, JSON.stringify(bundle.error));
    bundleId = bundle.data?.id ?? '';
    t.same(await bundleTitles(), ['Post 2', 'Post 1'], "a bundle shows its feed's items");
  });

  t.test('a new upstream item arrives within seconds, through conditional GETs', async (t) => {
    const before304 = source.hits[304];
    source.addItem('Fresh news');
    const deadline = Date.now() + 20_000;
    let titles: string[] = [];
    while (Date.now() < deadline) {
      titles = (await getFeed(feed.id)).data?.items.map((item) => item.title) ?? [];
      if (titles.includes('Fresh news')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    t.same(titles, ['Fresh news', 'Post 2', 'Post 1'], 'the new item is first, nothing is duplicated');
    // Its body was cached per version before the refresh; the new item must show all the same, once
    // the refresh has recorded the document it read (a moment after its items are stored).
    let inBundle: string[] = [];
    for (const end = Date.now() + 5_000; Date.now() < end && !inBundle.includes('Fresh news');) {
      inBundle = await bundleTitles();
      if (!inBundle.includes('Fresh news')) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.same(inBundle, ['Fresh news', 'Post 2', 'Post 1'], 'the bundle shows the new item too');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    t.ok(source.hits[304] > before304, 'later refreshes are conditional GETs answered 304');
    const after = await getFeed(feed.id);
    t.equal(after.data?.items.length, 3, 'refreshing again stores nothing twice');
  });

  t.test('plain HTTP to the API port fails', async (t) => {
    const outcome = await new Promise<string>((resolve) => {
      const req = plainRequest({ host: '127.0.0.1', port, path: '/v1/feeds', timeout: 5_000 }, (response) =>
        resolve(`status ${response.statusCode}`),
      );
      req.on('error', (error) => resolve(`error ${error.message}`));
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.end();
    });
    t.match(outcome, /^error /, `the request fails (${outcome})`);
  });

  t.test('an acknowledged write survives kill -9, and the certificate is reused', async (t) => {
    const cert = readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
    const renamed = await api.PATCH('/v1/feeds/{id}', { params: { path: { id: feed.id } }, body: { title: 'Kept' } });
    t.equal(renamed.response.status, 200);
    t.equal(await service.stop('SIGKILL'), null, 'killed');
    service = await startFeedmill(env, apiRole);
    t.equal(readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8'), cert, 'same certificate after restart');
    const response = await getFeed(feed.id);
    t.equal(response.response.status, 200);
    t.equal(response.data?.title, 'Kept');
  });

  t.test('probes and metrics answer on the metrics port, not on the public API', async (t) => {
    const plain = (path: string) => fetch(`http://127.0.0.1:${metricsPort}${path}`);
    t.equal((await plain('/healthz')).status, 200);
    // Rendering is reported whether or not this machine has a browser, and never makes it unready.
    const ready = (await (await plain('/readyz')).json()) as Record<string, unknown>;
    t.same(Object.keys(ready).sort(), ['rendering', 'status']);
    t.match(ready, { status: 'ready', rendering: { available: Boolean, queued: 0, in_progress: 0, browser_running: Boolean } });
    await getFeed(feed.id);
    // The queue gauge is a count re-read in the background (every 5 s in cluster mode, and soon
    // after each change): right after the restart above it may not have caught up yet.
    const queued = new RegExp(`feedmill_refresh_queue_size\\{queue="refresh",role="${apiRole}"\\} 1`);
    let exposition = await (await plain('/metrics')).text();
    for (const deadline = Date.now() + 7_000; !queued.test(exposition) && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      exposition = await (await plain('/metrics')).text();
    }
    t.match(
      exposition,
      /feedmill_http_request_duration_seconds_count\{[^}]*route="\/v1\/feeds\/:id"[^}]*status="200"/,
      'requests by route pattern and status',
    );
    t.match(exposition, queued, 'the feed waits in the refresh queue');
    t.match(exposition, /feedmill_parser_pool_utilization/);
    // Webhook dispatch and delivery run as jobs where the jobs run: in the worker when the roles are split.
    const workerExposition = worker ? await (await fetch(`http://127.0.0.1:${workerMetricsPort}/metrics`)).text() : exposition;
    t.match(
      workerExposition,
      new RegExp(`feedmill_delivery_queue_size\\{role="${worker ? 'worker' : 'all'}"\\} \\d`),
      'the delivery queue runs there',
    );
    t.match(exposition, /feedmill_job_lag_seconds/);
    const viaApi = await service.call('GET', '/metrics');
    t.equal(viaApi.status, 404, 'the public HTTPS port does not serve /metrics');
  });

  t.test('SIGTERM during load: requests in flight finish, accepted writes are kept, exit 0', async (t) => {
    const slow = await startFixtureServer((_request, response) => {
      setTimeout(() => {
        response
          .writeHead(200, { 'content-type': 'application/rss+xml' })
          .end('<rss version="2.0"><channel><title>Slow</title><item><title>a</title><guid>a</guid></item></channel></rss>');
      }, 1_500);
    });
    t.teardown(() => slow.close());
    const before = (await feedTotal()) ?? Number.NaN;
    const inFlight = Array.from({ length: 4 }, (_, n) => api.POST('/v1/feeds', { body: { url: `${slow.url}/feed-${n}.xml` } }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = service.stop('SIGTERM');
    const answers = await Promise.all(inFlight);
    t.same(
      answers.map((answer) => answer.response.status),
      [200, 200, 200, 200],
      'no request in flight failed',
    );
    t.equal(await exit, 0, 'a clean exit');
    service = await startFeedmill(env, apiRole);
    t.equal(await feedTotal(), before + 4, 'every accepted create was kept');
    t.equal(await service.stop('SIGTERM'), 0);
    if (worker) t.equal(await worker.stop('SIGTERM'), 0, 'the worker, too, exits cleanly on SIGTERM');
  });

  t.test('a bad setting stops start-up with a message naming it', async (t) => {
    const failure = await runCommand([apiRole], { ...env, FEEDMILL_PORT: 'eighty' }).then(
      () => 'started',
      (error: { stderr?: string }) => error.stderr ?? '',
    );
    t.match(failure, /FEEDMILL_PORT: expected an integer from 0 to 65535, got `eighty`/);
  });
}
