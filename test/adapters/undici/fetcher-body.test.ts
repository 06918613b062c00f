import t from 'tap';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { createUndiciFetcher, type UndiciFetcherOptions } from '../../../src/adapters/undici/fetcher.js';
import { startFixtureServer, type FixtureHandler } from '../../fixtures/http-fixture.js';

const feed = Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel>${'<item><title>x</title></item>'.repeat(200)}</channel></rss>`);

async function fetchFrom(t: { teardown(fn: () => unknown): void }, handler: FixtureHandler, options: UndiciFetcherOptions = {}) {
  const server = await startFixtureServer(handler);
  t.teardown(server.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000, ...options });
  t.teardown(() => fetcher.close());
  return fetcher.fetch({ url: `${server.url}/feed.xml` });
}

function bodyText(result: Awaited<ReturnType<typeof fetchFrom>>): string {
  return result.status === 200 ? Buffer.from(result.body).toString() : `(status ${result.status})`;
}

t.test('a Content-Length over the cap fails before the body is read', async (t) => {
  const started = Date.now();
  // The server promises 10 000 bytes but sends 10 and stalls: reading would end in a timeout instead.
  const attempt = fetchFrom(
    t,
    (_req, res) => {
      res.writeHead(200, { 'content-length': '10000' });
      res.write('0123456789');
    },
    { maxBodyBytes: 1000, timeoutMs: 3000 },
  );
  await t.rejects(attempt, { code: 'body_too_large', message: /at most 1000 bytes .*got Content-Length 10000/ });
  t.ok(Date.now() - started < 2000, 'it did not wait for the body');
});

t.test('a chunked body that grows past the cap is cut off', async (t) => {
  let sent = 0;
  const attempt = fetchFrom(
    t,
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const timer = setInterval(() => {
        sent += 512;
        res.write(Buffer.alloc(512, 0x61));
      }, 1);
      res.on('close', () => clearInterval(timer));
    },
    { maxBodyBytes: 4096 },
  );
  await t.rejects(attempt, { code: 'body_too_large', details: { maxBytes: 4096 } });
  t.ok(sent < 1024 * 1024, 'the fetcher stopped reading long before the server would have stopped');
});

t.test('a body of exactly the cap is accepted', async (t) => {
  const result = await fetchFrom(t, (_req, res) => res.end(Buffer.alloc(4096, 0x62)), { maxBodyBytes: 4096 });
  t.equal(result.status === 200 && result.body.length, 4096);
});

t.test('gzip, deflate (zlib and raw) and brotli bodies come back decompressed', async (t) => {
  const encodings: [string, Buffer][] = [
    ['gzip', gzipSync(feed)],
    ['x-gzip', gzipSync(feed)],
    ['deflate', deflateSync(feed)],
    ['deflate', deflateRawSync(feed)],
    ['br', brotliCompressSync(feed)],
    ['identity', feed],
  ];
  for (const [encoding, bytes] of encodings) {
    t.not(bytes.length === feed.length && encoding !== 'identity', true, 'the fixture really compresses');
    const result = await fetchFrom(t, (_req, res) => {
      res.writeHead(200, { 'content-encoding': encoding, 'content-length': String(bytes.length) }).end(bytes);
    });
    t.equal(bodyText(result), feed.toString(), `Content-Encoding: ${encoding}`);
  }
});

t.test('an empty deflate body is an empty body', async (t) => {
  const result = await fetchFrom(t, (_req, res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end());
  t.equal(result.status === 200 && result.body.length, 0);
});

t.test('the cap counts decompressed bytes, so a gzip bomb ends in body_too_large', async (t) => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros in about 64 KiB
  t.ok(bomb.length < 1024 * 1024, 'the compressed bomb itself is under the cap');
  const before = process.memoryUsage().rss;
  const attempt = fetchFrom(t, (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb), {
    maxBodyBytes: 1024 * 1024,
  });
  await t.rejects(attempt, { code: 'body_too_large' });
  t.ok(process.memoryUsage().rss - before < 48 * 1024 * 1024, 'memory did not grow by the inflated size');
});

t.test('a corrupt gzip body makes the source unreachable, with the reason', async (t) => {
  const attempt = fetchFrom(t, (_req, res) =>
    res.writeHead(200, { 'content-encoding': 'gzip' }).end(Buffer.from('this is not gzip at all')),
  );
  await t.rejects(attempt, { code: 'source_unreachable', message: /compressed body is corrupt/ });
});

t.test('an encoding feedmill did not ask for is refused with what was expected', async (t) => {
  const attempt = fetchFrom(t, (_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('xx'));
  await t.rejects(attempt, { code: 'source_unreachable', message: /Expected .*gzip, deflate, br or none, got `zstd`/ });
});
