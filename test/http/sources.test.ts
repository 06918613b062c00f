import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// One local "internet": a site with a feed link, a site with a feed only at /feed, a site with
// no feed at all, and a news-search provider.
const feedSource = await startRssSource(2);
const blog = readFileSync(join(repoRoot, 'test', 'fixtures', 'pages', 'blog-with-chrome.html'), 'utf8');
const searches: URL[] = [];
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const sites = await startFixtureServer((request, response): void => {
  const url = new URL(request.url ?? '/', 'http://x');
  const html = (body: string): void => void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  if (url.pathname === '/linked/')
    return html(
      `<html><head><title>Linked</title><link rel="alternate" type="application/rss+xml" href="${feedSource.url}"></head><body><p>hi</p></body></html>`,
    );
  if (url.pathname === '/wellknown/') return html('<html><head><title>Plain</title></head><body><p>Nothing here</p></body></html>');
  if (url.pathname === '/feed') return void response.writeHead(302, { location: feedSource.url }).end();
  if (url.pathname === '/blog/') return html(blog);
  if (url.pathname === '/search') {
    searches.push(url);
    const q = url.searchParams.get('q') ?? '';
    const item = (n: number) =>
      `<item><title>${escape(q)} story ${n}</title><link>https://news.example/${n}</link><guid>n${n}</guid></item>`;
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(`<rss version="2.0"><channel><title>Search: ${escape(q)}</title>${item(1)}${item(2)}</channel></rss>`);
  }
  response.writeHead(404).end();
  return undefined;
});
const env = createTestDeps();
env.deps.settings.keywordSearchUrl = `${sites.url}/search?q={keyword}&gl={country}&hl={lang}`;
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await sites.close();
  await feedSource.close();
  await env.close();
});
const alice = apiClient(app, await env.bearer('alice'));

interface ApiFeed {
  source_url: string;
  title: string;
  items: { url: string; title: string }[];
}

t.test('a site that advertises its feed is followed by that feed', async (t) => {
  const response = await alice.post('/v1/feeds', { url: `${sites.url}/linked/` });
  t.equal(response.statusCode, 200, response.body);
  const feed = response.json<ApiFeed>();
  t.equal(feed.source_url, `${sites.url}/linked/`, 'source_url stays the address the user gave');
  t.same(
    feed.items.map((item) => item.title),
    ['Post 2', 'Post 1'],
    'items come from the feed',
  );
});

t.test('a site with no feed link but a feed at a well-known path uses it', async (t) => {
  const feed = (await alice.post('/v1/feeds', { url: `${sites.url}/wellknown/` })).json<ApiFeed>();
  t.same(
    feed.items.map((item) => item.title),
    ['Post 2', 'Post 1'],
  );
});

t.test('a site with no feed gives its article list, without navigation, tag or pagination links', async (t) => {
  const response = await alice.post('/v1/feeds', { url: `${sites.url}/blog/` });
  t.equal(response.statusCode, 200, response.body);
  const urls = response.json<ApiFeed>().items.map((item) => new URL(item.url).pathname);
  t.same(urls, ['/blog/posts/first-light', '/blog/posts/river-crossing', '/blog/posts/quiet-week']);
});

t.test('a keyword and a region give the provider’s items and a source_url naming them', async (t) => {
  searches.length = 0;
  const response = await alice.post('/v1/feeds', { keyword: '"Open source" funding', region: 'br:PT' });
  t.equal(response.statusCode, 200, response.body);
  const feed = response.json<ApiFeed>();
  const source = new URL(feed.source_url);
  t.equal(`${source.origin}${source.pathname}`, 'https://feeds.example.test/keyword');
  t.same(Object.fromEntries(source.searchParams), { keyword: '"Open source" funding', region: 'BR', lang: 'pt' });
  t.same(
    [searches[0]?.searchParams.get('q'), searches[0]?.searchParams.get('gl'), searches[0]?.searchParams.get('hl')],
    ['"Open source" funding', 'BR', 'pt'],
  );
  t.same(
    feed.items.map((item) => item.title),
    ['"Open source" funding story 1', '"Open source" funding story 2'],
  );
});

t.test('keyword feeds need a region of the shape CC:ll', async (t) => {
  t.match(
    assertError(t, await alice.post('/v1/feeds', { keyword: 'rust', region: 'Brazil' }), 400, 'validation_failed').message,
    /COUNTRY:language/,
  );
  assertError(t, await alice.post('/v1/feeds', { keyword: 'rust' }), 400, 'validation_failed');
  assertError(t, await alice.post('/v1/feeds', { keyword: '   ', region: 'US:en' }), 400, 'validation_failed');
  assertError(t, await alice.post('/v1/feeds', { url: feedSource.url, keyword: 'rust', region: 'US:en' }), 400, 'validation_failed');
});
