import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const test = createTestDeps();
const app = await buildHttpApp(test.deps, { httpsOnly: false });
const source = await startRssSource(3);
t.teardown(async () => {
  await app.close();
  await source.close();
  await test.close();
});
const alice = await test.bearer('alice');
const post = (url: string, body: unknown) =>
  app.inject({ method: 'POST', url, headers: { authorization: alice, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const feedId = (await post('/v1/feeds', { url: source.url })).json<{ id: string }>().id;
const bundleId = (await post('/v1/bundles', { name: 'Morning', feeds: [feedId] })).json<{ id: string }>().id;
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

const formats = { xml: 'application/rss+xml', atom: 'application/atom+xml', json: 'application/feed+json', csv: 'text/csv' } as const;

for (const id of [feedId, bundleId]) {
  t.test(`${id.startsWith('_') ? 'a bundle' : 'a feed'} is served in each format, each with its own ETag and links`, async (t) => {
    const etags = new Set<string>();
    for (const [extension, mediaType] of Object.entries(formats)) {
      const response = await get(`/feeds/${id}.${extension}`);
      t.equal(response.statusCode, 200);
      t.equal(response.headers['content-type'], `${mediaType}; charset=utf-8`);
      t.equal(
        response.headers.link,
        `<https://feeds.example.test/feeds/${id}.${extension}>; rel="self", <https://feeds.example.test/websub>; rel="hub"`,
      );
      etags.add(String(response.headers.etag));
      t.equal(
        (await get(`/feeds/${id}.${extension}`, { 'if-none-match': String(response.headers.etag) })).statusCode,
        304,
        `.${extension}: 304 for its ETag`,
      );
      t.equal(
        (await get(`/feeds/${id}.${extension}`, { 'if-modified-since': String(response.headers['last-modified']) })).statusCode,
        304,
        `.${extension}: 304 for its date`,
      );
    }
    t.equal(etags.size, 4, 'four formats, four ETags');
    t.equal(
      (await get(`/feeds/${id}.atom`, { 'if-none-match': [...etags][0] ?? '' })).statusCode,
      200,
      'the RSS ETag does not make the Atom document fresh',
    );
  });
}

t.test('the extensionless address picks the format by Accept, RSS when nothing we serve is asked for', async (t) => {
  const cases: [string | undefined, string][] = [
    [undefined, formats.xml],
    ['*/*', formats.xml],
    ['application/atom+xml', formats.atom],
    ['application/feed+json', formats.json],
    ['application/json', formats.json],
    ['text/csv', formats.csv],
    ['text/html, application/atom+xml;q=0.5, application/feed+json;q=0.9', formats.json],
    ['application/atom+xml;q=0, text/csv;q=0.1', formats.csv],
    ['image/png', formats.xml],
  ];
  for (const [accept, mediaType] of cases) {
    const response = await get(`/feeds/${feedId}`, accept === undefined ? {} : { accept });
    t.equal(response.headers['content-type'], `${mediaType}; charset=utf-8`, `Accept: ${accept ?? '(none)'}`);
    t.equal(response.headers.vary, 'Accept, Accept-Encoding');
    const extension = Object.entries(formats).find(([, type]) => type === mediaType)?.[0];
    t.equal(
      response.body,
      (await get(`/feeds/${feedId}.${extension}`)).body,
      `Accept: ${accept ?? '(none)'}: the same document as .${extension}`,
    );
  }
});

t.test('gzip and brotli by Accept-Encoding, each decoding to the same document, each with its own ETag', async (t) => {
  const plain = await get(`/feeds/${feedId}.atom`);
  t.equal(plain.headers['content-encoding'], undefined);
  const gz = await get(`/feeds/${feedId}.atom`, { 'accept-encoding': 'gzip' });
  t.equal(gz.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
  const br = await get(`/feeds/${feedId}.atom`, { 'accept-encoding': 'gzip, deflate, br' });
  t.equal(br.headers['content-encoding'], 'br');
  t.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
  t.ok(br.rawPayload.length < plain.rawPayload.length, 'smaller than the document');
  t.equal((await get(`/feeds/${feedId}.atom`, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding'], 'gzip');
  t.equal((await get(`/feeds/${feedId}.atom`, { 'accept-encoding': 'identity' })).headers['content-encoding'], undefined);
  t.equal(new Set([plain.headers.etag, gz.headers.etag, br.headers.etag]).size, 3);
  const fresh = await get(`/feeds/${feedId}.atom`, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
  t.equal(fresh.statusCode, 304, 'a copy in any coding is fresh while the document is unchanged');
});

t.test('an unknown extension or id is 404 in our shape', async (t) => {
  for (const url of [`/feeds/${feedId}.rss2`, `/feeds/${feedId}.html`, '/feeds/AAAAAAAAAAAAAAAA.atom']) {
    const response = await get(url);
    t.equal(response.statusCode, 404, url);
    t.match(response.json(), { statusCode: 404, errors: [{ code: 'feed_not_found' }] });
  }
});
