import type { IncomingHttpHeaders } from 'node:http';
import t, { type Test } from 'tap';
import { createUndiciFetcher, type UndiciFetcherOptions } from '../../../src/adapters/undici/fetcher.js';
import { startFixtureServer } from '../../fixtures/http-fixture.js';

const rss = '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>';

function openFetcher(t: { teardown(fn: () => unknown): void }, options: UndiciFetcherOptions = {}) {
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000, ...options });
  t.teardown(() => fetcher.close());
  return fetcher;
}

t.test('a feed comes back with its body, type, validators and caching hints', async (t) => {
  let seen: IncomingHttpHeaders = {};
  const server = await startFixtureServer((req, res) => {
    seen = req.headers;
    res.writeHead(200, {
      'content-type': 'application/rss+xml; charset=utf-8',
      etag: '"v1"',
      'last-modified': 'Tue, 01 Oct 2024 10:00:00 GMT',
      'cache-control': 'max-age=600',
      'retry-after': '120',
    });
    res.end(rss);
  });
  t.teardown(server.close);
  const fetcher = openFetcher(t, { version: '1.2.3' });
  const result = await fetcher.fetch({ url: `${server.url}/feed.xml` });
  t.same(result, {
    status: 200,
    url: `${server.url}/feed.xml`,
    body: Buffer.from(rss),
    contentType: 'application/rss+xml; charset=utf-8',
    etag: '"v1"',
    lastModified: 'Tue, 01 Oct 2024 10:00:00 GMT',
    cacheControl: 'max-age=600',
    retryAfter: '120',
  });
  t.ok(result.status === 200 && result.body instanceof Uint8Array);
  t.equal(seen['user-agent'], 'feedmill/1.2.3', 'no contact configured: the version alone');
  t.match(seen.accept, /^application\/rss\+xml, application\/atom\+xml, application\/feed\+json/);
  t.match(seen.accept, /text\/html;q=0\.8/);
  t.equal(seen['accept-encoding'], 'gzip, deflate, br');
  t.equal(seen['if-none-match'], undefined, 'no validators on a first fetch');
  t.equal(seen['if-modified-since'], undefined);
});

/** The User-Agent a fetcher made with `options` sends. */
async function agentSent(t: Test, options: UndiciFetcherOptions): Promise<string | undefined> {
  let agent: string | undefined;
  const server = await startFixtureServer((req, res) => {
    agent = req.headers['user-agent'];
    res.end(rss);
  });
  t.teardown(server.close);
  await openFetcher(t, options).fetch({ url: `${server.url}/` });
  return agent;
}

t.test("the default User-Agent names the deployment's public URL as the contact", async (t) => {
  t.equal(await agentSent(t, { version: '1.2.3', contact: 'https://feeds.example.org' }), 'feedmill/1.2.3 (+https://feeds.example.org)');
});

t.test('a custom User-Agent replaces the default', async (t) => {
  t.equal(await agentSent(t, { userAgent: 'my-reader/2' }), 'my-reader/2');
});

t.test('an unchanged feed answers 304 to the validators of the last fetch', async (t) => {
  let seen: IncomingHttpHeaders = {};
  const server = await startFixtureServer((req, res) => {
    seen = req.headers;
    if (req.headers['if-none-match'] === '"v1"') {
      res.writeHead(304, { 'cache-control': 'max-age=900', 'retry-after': '60' }).end();
    } else {
      res.end(rss);
    }
  });
  t.teardown(server.close);
  const fetcher = openFetcher(t);
  const result = await fetcher.fetch({
    url: `${server.url}/feed.xml`,
    etag: '"v1"',
    lastModified: 'Tue, 01 Oct 2024 10:00:00 GMT',
  });
  t.same(result, { status: 304, url: `${server.url}/feed.xml`, cacheControl: 'max-age=900', retryAfter: '60' });
  t.equal(seen['if-modified-since'], 'Tue, 01 Oct 2024 10:00:00 GMT');
});

t.test('a source that is down says so with its status and Retry-After', async (t) => {
  const server = await startFixtureServer((_req, res) => {
    res.writeHead(503, { 'retry-after': '120' }).end('maintenance');
  });
  t.teardown(server.close);
  const error = await openFetcher(t)
    .fetch({ url: `${server.url}/feed.xml` })
    .catch((e: unknown) => e);
  t.match(error, {
    code: 'upstream_status',
    details: { status: 503, retryAfter: '120' },
    message: /HTTP 503 .*\(Retry-After: 120\)/,
  });
});

t.test('a missing feed says HTTP 404 without a Retry-After', async (t) => {
  const server = await startFixtureServer((_req, res) => {
    res.writeHead(404).end('not here');
  });
  t.teardown(server.close);
  const error = await openFetcher(t)
    .fetch({ url: `${server.url}/gone.xml` })
    .catch((e: unknown) => e);
  t.match(error, { code: 'upstream_status', message: /HTTP 404/ });
  t.same((error as { details: unknown }).details, { status: 404 });
});

t.test('an answer with no content is not taken for an empty feed', async (t) => {
  const server = await startFixtureServer((_req, res) => {
    res.writeHead(204).end();
  });
  t.teardown(server.close);
  await t.rejects(openFetcher(t).fetch({ url: `${server.url}/` }), { code: 'upstream_status', details: { status: 204 } });
});
