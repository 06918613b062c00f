import t from 'tap';
import { createUndiciFetcher } from '../../../src/adapters/undici/fetcher.js';
import { startFixtureServer } from '../../fixtures/http-fixture.js';

/** `/hop/N` redirects to `/hop/N+1` (alternating relative and absolute Locations) until `/hop/<last>`. */
async function redirectChain(last: number, status = 302) {
  const visited: string[] = [];
  const server = await startFixtureServer((req, res) => {
    visited.push(req.url ?? '');
    const step = Number(/^\/hop\/(\d+)/.exec(req.url ?? '')?.[1] ?? Number.NaN);
    if (step >= last) {
      res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(`<feed>${step}</feed>`);
      return;
    }
    const next = step % 2 === 0 ? `../hop/${step + 1}?from=${step}` : `${server.url}/hop/${step + 1}`;
    res.writeHead(status, { location: next }).end('moved');
  });
  return { ...server, visited };
}

t.test('a redirect chain is followed to the final address, which comes back as url', async (t) => {
  const chain = await redirectChain(3);
  t.teardown(chain.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  const result = await fetcher.fetch({ url: `${chain.url}/hop/0` });
  t.equal(result.status, 200);
  t.equal(result.url, `${chain.url}/hop/3?from=2`);
  t.equal(result.status === 200 && Buffer.from(result.body).toString(), '<feed>3</feed>');
  t.same(chain.visited, ['/hop/0', '/hop/1?from=0', '/hop/2', '/hop/3?from=2'], 'relative Locations resolved');
});

t.test('every redirect status is followed', async (t) => {
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  for (const status of [301, 302, 303, 307, 308]) {
    const chain = await redirectChain(1, status);
    const result = await fetcher.fetch({ url: `${chain.url}/hop/0` });
    t.equal(result.url, `${chain.url}/hop/1?from=0`, `HTTP ${status}`);
    await chain.close();
  }
});

t.test('exactly maxRedirects redirects are fine; one more is too many', async (t) => {
  const chain = await redirectChain(3);
  t.teardown(chain.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, maxRedirects: 3, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  t.equal((await fetcher.fetch({ url: `${chain.url}/hop/0` })).status, 200, 'three redirects');
  await t.rejects(fetcher.fetch({ url: `${chain.url}/hop/-1` }), {
    code: 'too_many_redirects',
    message: /Expected at most 3 redirects/,
  });
});

t.test('a redirect loop ends in too_many_redirects after the default five', async (t) => {
  let hits = 0;
  const server = await startFixtureServer((_req, res) => {
    hits++;
    res.writeHead(301, { location: '/loop' }).end();
  });
  t.teardown(server.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  await t.rejects(fetcher.fetch({ url: `${server.url}/loop` }), { code: 'too_many_redirects' });
  t.equal(hits, 6, 'the first request and five redirects');
});

t.test('a redirect to a non-http scheme is an invalid URL', async (t) => {
  const server = await startFixtureServer((_req, res) => {
    res.writeHead(302, { location: 'file:///etc/passwd' }).end();
  });
  t.teardown(server.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  await t.rejects(fetcher.fetch({ url: `${server.url}/` }), { code: 'invalid_url', message: /got a `file:` URL/ });
});

t.test('a redirect without a Location is reported as the status it is', async (t) => {
  const server = await startFixtureServer((_req, res) => {
    res.writeHead(302).end();
  });
  t.teardown(server.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 2000 });
  t.teardown(() => fetcher.close());
  await t.rejects(fetcher.fetch({ url: `${server.url}/` }), { code: 'upstream_status', details: { status: 302 } });
});
