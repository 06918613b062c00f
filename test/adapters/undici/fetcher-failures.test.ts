import t from 'tap';
import { createUndiciFetcher, type UndiciFetcherOptions } from '../../../src/adapters/undici/fetcher.js';
import { startFixtureServer, type FixtureHandler } from '../../fixtures/http-fixture.js';

function openFetcher(t: { teardown(fn: () => unknown): void }, options: UndiciFetcherOptions = {}) {
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 300, ...options });
  t.teardown(() => fetcher.close());
  return fetcher;
}

async function serve(t: { teardown(fn: () => unknown): void }, handler: FixtureHandler): Promise<string> {
  const server = await startFixtureServer(handler);
  t.teardown(server.close);
  return `${server.url}/feed.xml`;
}

/** Runs `attempt` and returns what it threw and how long it took. */
async function timed(attempt: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

t.test('a server that never answers times out after timeoutMs', async (t) => {
  const url = await serve(t, () => {
    /* never answers */
  });
  const { error, ms } = await timed(openFetcher(t).fetch({ url }));
  t.match(error, { code: 'upstream_timeout', message: /within 300 ms/ });
  t.ok(ms >= 250 && ms < 2000, `gave up after ${ms} ms`);
});

t.test('a body that stalls halfway times out', async (t) => {
  const url = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.write('<rss>');
  });
  const { error, ms } = await timed(openFetcher(t).fetch({ url }));
  t.match(error, { code: 'upstream_timeout' });
  t.ok(ms < 2000, `gave up after ${ms} ms`);
});

t.test('a body that trickles forever is cut by the whole-request deadline', async (t) => {
  // A byte every 20 ms never trips an inactivity timer; only a deadline for the whole fetch stops it.
  const url = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    const timer = setInterval(() => res.write(' '), 20);
    res.on('close', () => clearInterval(timer));
  });
  const { error, ms } = await timed(openFetcher(t, { timeoutMs: 400 }).fetch({ url }));
  t.match(error, { code: 'upstream_timeout' });
  t.ok(ms >= 350 && ms < 2000, `gave up after ${ms} ms`);
});

t.test('a DNS lookup that never answers times out', async (t) => {
  const lookup = () => new Promise<never>(() => undefined);
  const { error, ms } = await timed(openFetcher(t, { lookup }).fetch({ url: 'http://slow-dns.example.test/feed' }));
  t.match(error, { code: 'upstream_timeout' });
  t.ok(ms < 2000, `gave up after ${ms} ms`);
});

t.test('a DNS answer that never came does not block the next fetch of that host', async (t) => {
  const server = await startFixtureServer((_req, res) => res.end('<rss/>'));
  t.teardown(server.close);
  let calls = 0;
  const lookup = (): Promise<{ address: string; family: number }[]> =>
    ++calls === 1 ? new Promise<never>(() => undefined) : Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  const fetcher = openFetcher(t, { lookup });
  const url = `http://feeds.example.test:${new URL(server.url).port}/feed.xml`;
  await t.rejects(fetcher.fetch({ url }), { code: 'upstream_timeout' });
  t.equal((await fetcher.fetch({ url })).status, 200, 'the second fetch got through');
});

t.test('a refused connection makes the source unreachable, naming the reason', async (t) => {
  const server = await startFixtureServer(() => undefined);
  const url = `${server.url}/feed.xml`;
  await server.close(); // nothing listens on that port any more
  const { error } = await timed(openFetcher(t).fetch({ url }));
  t.match(error, { code: 'source_unreachable', message: /connection was refused \(ECONNREFUSED/ });
});

t.test('a host name that does not resolve makes the source unreachable', async (t) => {
  const lookup = async (hostname: string) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  const { error } = await timed(openFetcher(t, { lookup }).fetch({ url: 'http://no-such-host.example.test/' }));
  t.match(error, { code: 'source_unreachable', message: /does not resolve \(ENOTFOUND/ });
});

t.test('a connection dropped before the answer makes the source unreachable', async (t) => {
  const url = await serve(t, (req) => req.socket.destroy());
  const { error } = await timed(openFetcher(t).fetch({ url }));
  t.match(error, { code: 'source_unreachable', message: /UND_ERR_SOCKET|ECONNRESET/ });
});

t.test('only http and https URLs without credentials are accepted', async (t) => {
  const fetcher = openFetcher(t);
  const cases: [url: string, message: RegExp][] = [
    ['ftp://example.com/feed.xml', /http or https URL, got a `ftp:` URL/],
    ['file:///etc/passwd', /got a `file:` URL/],
    ['javascript:alert(1)', /got a `javascript:` URL/],
    ['example.com/feed.xml', /absolute http or https URL, got "example\.com\/feed\.xml"/],
    ['', /absolute http or https URL, got an empty string/],
    ['http://', /absolute http or https URL/],
    ['http://user:hunter2@example.com/feed', /without a user name or password/],
  ];
  for (const [url, message] of cases) {
    const error = await fetcher.fetch({ url }).catch((e: unknown) => e);
    t.match(error, { code: 'invalid_url', message }, JSON.stringify(url));
    t.notMatch((error as Error).message, /hunter2/, 'a password is never repeated');
  }
});

t.test('nonsensical options are refused when the fetcher is made', async (t) => {
  t.throws(() => createUndiciFetcher({ maxBodyBytes: 0 }), /Expected `maxBodyBytes` to be an integer of at least 1, got `0`/);
  t.throws(() => createUndiciFetcher({ maxRedirects: -1 }), /`maxRedirects`/);
  t.throws(() => createUndiciFetcher({ timeoutMs: Number.NaN }), /`timeoutMs`.*got `NaN`/);
});

t.test('close() stops the fetcher from fetching', async (t) => {
  const url = await serve(t, (_req, res) => res.end('<rss/>'));
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 300 });
  t.equal((await fetcher.fetch({ url })).status, 200);
  await fetcher.close();
  await t.rejects(fetcher.fetch({ url }));
});
