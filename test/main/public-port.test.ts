import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { freePort, startFeedmill } from '../fixtures/feedmill-process.js';
import { createKey } from '../fixtures/feedmill-service.js';
import { rawTlsRequest } from '../fixtures/raw-tls.js';
import { startRssSource } from '../fixtures/rss-source.js';

// The real binary over HTTPS: what leaves the public port, and what stays on the metrics port.
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-public-port-'));
const metricsPort = await freePort();
const env = {
  FEEDMILL_PORT: String(await freePort()),
  FEEDMILL_METRICS_PORT: String(metricsPort),
  FEEDMILL_DATA_DIR: dataDir,
  FEEDMILL_ALLOW_PRIVATE_NETWORKS: 'true',
  FEEDMILL_PARSER_THREADS: '1',
  FEEDMILL_HSTS_MAX_AGE: '1234',
  FEEDMILL_HSTS_INCLUDE_SUBDOMAINS: 'true',
  FEEDMILL_LOG_LEVEL: 'warn',
};
const source = await startRssSource(2);
const service = await startFeedmill(env, 'api');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const { authorization } = await createKey(env, 'alice');

t.test('/metrics answers on the metrics port only; the public port says 404 in our error shape', async (t) => {
  const publicMetrics = await service.call('GET', '/metrics');
  t.equal(publicMetrics.status, 404);
  const body = JSON.parse(publicMetrics.text) as { statusCode: number; errors: { code: string }[] };
  t.equal(body.statusCode, 404);
  t.equal(body.errors[0]?.code, 'route_not_found');
  t.notMatch(publicMetrics.text, /feedmill_http_request_duration_seconds/);
  const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  t.equal(scraped.status, 200);
  t.match(await scraped.text(), /feedmill_http_request_duration_seconds/);
});

t.test('every HTTPS response carries HSTS, nosniff, a referrer policy and a CSP: API, errors and hosted feeds', async (t) => {
  const created = await service.call('POST', '/v1/feeds', { authorization, body: { url: source.url } });
  t.equal(created.status, 200, 'the feed is created');
  const feed = JSON.parse(created.text) as { rss_feed_url: string };
  const responses = {
    'an API listing': await service.call('GET', '/v1/feeds', { authorization }),
    'a 401': await service.call('GET', '/v1/feeds'),
    'an unknown route': await service.call('GET', '/nowhere'),
    'a hosted feed': await service.call('GET', new URL(feed.rss_feed_url).pathname),
    'a missing hosted feed': await service.call('GET', '/feeds/nosuchfeed000000.xml'),
    'a health probe': await service.call('GET', '/healthz'),
  };
  t.equal(responses['a hosted feed'].status, 200, 'the hosted feed itself');
  for (const [what, response] of Object.entries(responses)) {
    t.equal(response.headers['strict-transport-security'], 'max-age=1234; includeSubDomains', `${what}: HSTS as configured`);
    t.equal(response.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
    t.equal(response.headers['referrer-policy'], 'no-referrer', `${what}: no referrer`);
    t.match(response.headers['content-security-policy'], /^default-src 'none'/, `${what}: nothing in it may load or run`);
  }
});

t.test('requests refused before routing carry the security headers and our error shape too', async (t) => {
  const ca = readFileSync(join(dataDir, 'tls', 'self-signed-cert.pem'), 'utf8');
  const port = Number(env.FEEDMILL_PORT);
  const host = 'Host: localhost\r\n';
  // Each as an attacker would send it: the first two reach Fastify's router, the rest Node's parser only.
  const cases: { what: string; raw: string; status: number; code: string }[] = [
    { what: 'a 3,000-character path', raw: `GET /v1/feeds/${'a'.repeat(3000)} HTTP/1.1\r\n${host}\r\n`, status: 414, code: 'uri_too_long' },
    { what: 'a bad percent-encoding', raw: `GET /v1/feeds/%zz HTTP/1.1\r\n${host}\r\n`, status: 400, code: 'validation_failed' },
    {
      what: 'a header over 17 KB',
      raw: `GET /healthz HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
      status: 431,
      code: 'headers_too_large',
    },
    { what: 'a malformed request line', raw: `GET /healthz HTTP/9 nonsense\r\n${host}\r\n`, status: 400, code: 'validation_failed' },
    { what: 'a malformed header', raw: `GET /healthz HTTP/1.1\r\n${host}Bad Header\r\n\r\n`, status: 400, code: 'validation_failed' },
    {
      what: 'Content-Length with Transfer-Encoding',
      raw: `POST /v1/feeds HTTP/1.1\r\n${host}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      status: 400,
      code: 'validation_failed',
    },
    { what: 'an unknown method', raw: `FOO /healthz HTTP/1.1\r\n${host}\r\n`, status: 400, code: 'validation_failed' },
  ];
  for (const { what, raw, status, code } of cases) {
    const response = await rawTlsRequest(port, ca, raw);
    t.equal(response.status, status, `${what}: ${status}`);
    t.equal(response.headers['strict-transport-security'], 'max-age=1234; includeSubDomains', `${what}: HSTS as configured`);
    t.equal(response.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
    t.equal(response.headers['referrer-policy'], 'no-referrer', `${what}: no referrer`);
    t.match(response.headers['content-security-policy'], /^default-src 'none'/, `${what}: nothing in it may load or run`);
    const body = JSON.parse(response.body) as { statusCode: number; message: string; errors: { code: string; title: string }[] };
    t.equal(body.statusCode, status, `${what}: statusCode in the body`);
    t.equal(body.errors[0]?.code, code, `${what}: ${code}`);
    t.type(body.message, 'string');
  }
});
