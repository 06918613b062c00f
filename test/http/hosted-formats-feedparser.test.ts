import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractFromJson } from '@extractus/feed-extractor';
import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { feedparserPython, readWithFeedparser } from '../fixtures/feedparser.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// Every hosted format read by an independent parser: RSS and Atom by Python's feedparser (PyPI), CSV
// by Python's csv module. No feedparser release reads JSON Feed (its support is only on the unreleased
// develop branch, kurtmckee/feedparser#103), so JSON Feed is read by @extractus/feed-extractor, after
// a check of the fields JSON Feed 1.1 requires.
const found = await feedparserPython();
if ('skip' in found) {
  t.plan(0, found.skip);
} else {
  const { python } = found;
  // Titles and names that need escaping in every format: markup, quotes, commas, line ends, non-ASCII.
  const items = [
    { title: 'Plain first post', author: 'Ada Lovelace', day: 1 },
    { title: 'Tom & Jerry <b>say</b> "hi", again', author: "Zoë O'Brien", day: 2 },
    { title: 'Zürich, Ünïcode — and a comma', author: 'Grace Hopper', day: 3 },
  ];
  const source = await startFixtureServer((_request, response) => {
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    response
      .writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' })
      .end(
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Fixture</title><link>http://127.0.0.1/</link><description>d</description>' +
          items
            .map(
              (item) =>
                `<item><title>${escape(item.title)}</title><link>http://127.0.0.1/posts/${item.day}</link><guid>urn:post:${item.day}</guid>` +
                `<pubDate>${new Date(Date.UTC(2026, 0, item.day, 12, 30, 15)).toUTCString()}</pubDate><dc:creator>${escape(item.author)}</dc:creator>` +
                `<description>${escape(`<p>Body ${item.day}</p>`)}</description></item>`,
            )
            .join('') +
          '</channel></rss>',
      );
  });
  const test = createTestDeps();
  const app = await buildHttpApp(test.deps, { httpsOnly: false });
  const dir = mkdtempSync(join(tmpdir(), 'feedmill-formats-'));
  t.teardown(async () => {
    await app.close();
    await source.close();
    await test.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const alice = await test.bearer('alice');
  const post = (url: string, body: unknown) =>
    app.inject({
      method: 'POST',
      url,
      headers: { authorization: alice, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const feed = (await post('/v1/feeds', { url: `${source.url}/feed.xml` })).json<{ id: string }>();
  const bundle = (await post('/v1/bundles', { name: 'Reading, list', feeds: [feed.id] })).json<{ id: string }>();

  for (const [what, id, apiPath] of [
    ['a feed', feed.id, `/v1/feeds/${feed.id}`],
    ['a bundle', bundle.id, `/v1/bundles/${bundle.id}`],
  ] as const) {
    t.test(
      `${what}: RSS, Atom and CSV read by feedparser and csv with no bozo flag, JSON Feed by feed-extractor, all with the same items`,
      async (t) => {
        const api = (await app.inject({ method: 'GET', url: apiPath, headers: { authorization: alice } })).json<{
          items: { title: string; url: string; date_published: string; authors: { name: string }[] }[];
        }>();
        t.equal(api.items.length, items.length);
        const expected = api.items.map((item) => ({
          title: item.title,
          link: item.url,
          published: Math.floor(Date.parse(item.date_published) / 1000),
          authors: item.authors.map((author) => author.name),
        }));
        const files: Record<string, { file: string; type: string }> = {};
        for (const format of ['xml', 'atom', 'csv']) {
          const response = await app.inject({ method: 'GET', url: `/feeds/${id}.${format}` });
          t.equal(response.statusCode, 200, `.${format} is served`);
          const file = join(dir, `${id}.${format}`);
          writeFileSync(file, response.rawPayload);
          files[format] = { file, type: String(response.headers['content-type']) };
        }
        const read = await readWithFeedparser(python, files);
        t.match(read, { xml: { version: 'rss20' }, atom: { version: 'atom10' } });
        for (const [format, document] of Object.entries(read)) {
          t.equal(document.bozo, false, `.${format}: no bozo flag (${document.bozo_exception ?? 'well-formed'})`);
          t.same(document.items, expected, `.${format}: the same items, titles, dates, authors and links as the API`);
          if (format === 'csv') continue;
          t.equal(document.self, `https://feeds.example.test/feeds/${id}.${format}`, `.${format}: its own self link`);
          t.equal(document.hub, 'https://feeds.example.test/websub', `.${format}: the hub link`);
        }

        const json = (await app.inject({ method: 'GET', url: `/feeds/${id}.json` })).json<
          Record<string, unknown> & { items: Record<string, unknown>[] }
        >();
        t.match(json, {
          version: 'https://jsonfeed.org/version/1.1',
          title: String,
          feed_url: `https://feeds.example.test/feeds/${id}.json`,
          hubs: [{ type: 'WebSub', url: 'https://feeds.example.test/websub' }],
        });
        for (const item of json.items)
          t.match(item, { id: String, content_html: String }, '.json: each item has the id and content JSON Feed 1.1 requires');
        const extracted = extractFromJson(json, {
          useISODateFormat: true,
          getExtraEntryFields: (entry) => ({ authors: entry['authors'] }),
        });
        t.same(
          extracted.entries?.map((entry) => ({
            title: entry.title,
            link: entry.link,
            published: Math.floor(Date.parse(String(entry.published)) / 1000),
            authors: ((entry as { authors?: { name: string }[] }).authors ?? []).map((author) => author.name),
          })),
          expected,
          '.json: the same items, titles, dates, authors and links as the API',
        );
      },
    );
  }
}
