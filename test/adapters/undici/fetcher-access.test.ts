import type { IncomingHttpHeaders } from 'node:http';
import t from 'tap';
import { createUndiciFetcher } from '../../../src/adapters/undici/fetcher.js';
import type { SourceAccess } from '../../../src/ports/fetcher.js';
import { startFixtureServer } from '../../fixtures/http-fixture.js';

const options = {
  userAgent: 'Reader/1.0',
  headers: { 'X-Api-Key': 'k3y-sekrit', Accept: 'application/json' },
  basicAuth: { username: 'reader', password: 'pässword' },
};
const basic = `Basic ${Buffer.from('reader:pässword', 'utf8').toString('base64')}`;

/** A server that records each request's headers and answers from `route`. */
async function recorder(host: string, route: (path: string) => { status: number; location?: string }) {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server = await startFixtureServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const { status, location } = route(req.url ?? '');
    res.writeHead(status, { 'content-type': 'application/atom+xml', ...(location ? { location } : {}) }).end('<feed/>');
  }, host);
  return { ...server, seen };
}

const carries = (headers: IncomingHttpHeaders): boolean =>
  headers['x-api-key'] === 'k3y-sekrit' && headers.authorization === basic && headers['user-agent'] === 'Reader/1.0';
const carriesNone = (headers: IncomingHttpHeaders): boolean =>
  headers['x-api-key'] === undefined && headers.authorization === undefined && headers['user-agent'] !== 'Reader/1.0';

t.test("the source's own origin gets its headers and credentials, on every same-origin hop", async (t) => {
  const source = await recorder('127.0.0.1', (path) => (path === '/old' ? { status: 301, location: '/feed' } : { status: 200 }));
  t.teardown(source.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const access: SourceAccess = { origin: source.url, options };
  t.equal((await fetcher.fetch({ url: `${source.url}/old`, access })).status, 200);
  t.same(
    source.seen.map((hop) => hop.path),
    ['/old', '/feed'],
  );
  for (const hop of source.seen) {
    t.ok(carries(hop.headers), `${hop.path} carries the options`);
    t.equal(hop.headers.accept, 'application/json', `${hop.path}: the Accept given replaces feedmill's`);
  }
});

t.test('a redirect to another origin goes without them, and the other origin is never sent them', async (t) => {
  const other = await recorder('127.0.0.2', () => ({ status: 200 }));
  t.teardown(other.close);
  const source = await recorder('127.0.0.1', () => ({ status: 302, location: `${other.url}/elsewhere` }));
  t.teardown(source.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const result = await fetcher.fetch({ url: `${source.url}/feed`, access: { origin: source.url, options } });
  t.equal(result.url, `${other.url}/elsewhere`);
  t.ok(carries(source.seen[0]?.headers ?? {}), 'the first hop, on the source origin, carries them');
  t.equal(other.seen.length, 1);
  t.ok(carriesNone(other.seen[0]?.headers ?? {}), 'the cross-origin hop carries none of them');
  t.match(other.seen[0]?.headers['user-agent'], /^feedmill\//, "the other origin sees feedmill's own User-Agent");

  // Asked directly (an article page, a feed the page advertised elsewhere), another origin gets nothing either.
  await fetcher.fetch({ url: `${other.url}/article`, access: { origin: source.url, options } });
  t.ok(carriesNone(other.seen[1]?.headers ?? {}));
});

t.test('the same host on another port is another origin', async (t) => {
  const source = await recorder('127.0.0.1', () => ({ status: 200 }));
  t.teardown(source.close);
  const neighbour = await recorder('127.0.0.1', () => ({ status: 200 }));
  t.teardown(neighbour.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  await fetcher.fetch({ url: `${neighbour.url}/feed`, access: { origin: source.url, options } });
  t.ok(carriesNone(neighbour.seen[0]?.headers ?? {}));
});
