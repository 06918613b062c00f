import { join } from 'node:path';
import t from 'tap';
import { createParserPool } from '../../../src/adapters/piscina/parser-pool.js';
import { createUndiciFetcher } from '../../../src/adapters/undici/fetcher.js';
import { fetchDocument } from '../../../src/app/fetch-document.js';
import { startFixtureServer } from '../../fixtures/http-fixture.js';
import { repoRoot } from '../../fixtures/repo-root.js';

/** An item whose only link is relative: where it points depends on the base the parser was given. */
const feed = Buffer.from('<rss version="2.0"><channel><title>c</title><item><title>i</title><link>items/1</link></item></channel></rss>');

function pool(t: { teardown(fn: () => unknown): void }, idleTimeoutMs?: number, timeoutMs = 300_000): ReturnType<typeof createParserPool> {
  const parser = createParserPool({
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
    tasks: {
      feed: join(repoRoot, 'dist', 'workers', 'parse-feed-task.js'),
      page: join(repoRoot, 'dist', 'workers', 'extract-page-task.js'),
      article: join(repoRoot, 'dist', 'workers', 'extract-article-task.js'),
    },
    maxThreads: 1,
    // Not what is tested: a thread's first start on a loaded machine can outlast the 10 s default.
    timeoutMs,
  });
  t.teardown(() => parser.close());
  return parser;
}

t.test('the pool starts no thread until the first parse, and ends it once idle', async (t) => {
  const parser = pool(t, 50);
  t.equal(parser.threads, 0, 'an idle process holds no parser thread');
  const parsed = await parser.parse(feed, { url: 'https://fetched.example/feed' });
  t.equal(parsed.items.length, 1);
  t.equal(parser.threads, 1, 'the parse started one');
  // The idle timeout is what is tested, not how long it takes: wait for the thread to end.
  while (parser.threads > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(parser.threads, 0, 'the thread ended once idle');
  const again = await parser.parse(feed, { url: 'https://fetched.example/feed' });
  t.equal(again.items.length, 1, 'a parse after the shrink starts a thread again');
});

t.test('a pool given no thread count parses with one per CPU', async (t) => {
  const parser = createParserPool({
    tasks: {
      feed: join(repoRoot, 'dist', 'workers', 'parse-feed-task.js'),
      page: join(repoRoot, 'dist', 'workers', 'extract-page-task.js'),
      article: join(repoRoot, 'dist', 'workers', 'extract-article-task.js'),
    },
    timeoutMs: 300_000,
  });
  t.teardown(() => parser.close());
  const parsed = await parser.parse(feed, { url: 'https://fetched.example/feed' });
  t.equal(parsed.items.length, 1, 'the first parse starts a thread and answers');
});

t.test('a parse past its budget is stopped with parse_timeout', async (t) => {
  // 1 ms: starting the thread alone takes longer, so the budget is spent whatever the machine.
  const parser = pool(t, undefined, 1);
  await t.rejects(parser.parse(feed, { url: 'https://fetched.example/feed' }), { code: 'parse_timeout' });
});

t.test('the pool hands Content-Location to the parser thread as the base for relative links', async (t) => {
  const parser = pool(t);
  const withLocation = await parser.parse(feed, { url: 'https://fetched.example/a/feed', contentLocation: '/b/feed.xml' });
  t.equal(
    withLocation.items[0]?.url,
    'https://fetched.example/b/items/1',
    'resolved against Content-Location, itself resolved against the URL',
  );
  const without = await parser.parse(feed, { url: 'https://fetched.example/a/feed' });
  t.equal(without.items[0]?.url, 'https://fetched.example/a/items/1', 'without it, against the fetched URL');
});

t.test("a response's Content-Location reaches the parser: fetcher, use case and pool", async (t) => {
  const server = await startFixtureServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/rss+xml', 'content-location': '/published/feed.xml' }).end(feed);
  });
  t.teardown(server.close);
  const fetcher = createUndiciFetcher({ allowPrivateNetworks: true, timeoutMs: 5_000 });
  t.teardown(() => fetcher.close());
  const fetched = await fetcher.fetch({ url: `${server.url}/feeds/latest` });
  t.equal(fetched.status === 200 ? fetched.contentLocation : undefined, '/published/feed.xml', 'the fetcher reports the header as sent');
  const document = await fetchDocument({ fetcher, parser: pool(t) }, `${server.url}/feeds/latest`);
  t.equal(document.kind === 'parsed' ? document.parsed.items[0]?.url : document.kind, `${server.url}/published/items/1`);
});

t.test("the pool extracts an article in a thread, with the feed's own rules, and null for no article", async (t) => {
  const parser = pool(t);
  const prose = 'The ferry will keep running, the council said after a vote that drew the highest turnout in decades. '.repeat(4);
  const page = Buffer.from(
    `<html><body><nav><a href="/">Home</a></nav><div class="story"><p>${prose}</p><p class="promo">PROMO-TEXT subscribe now</p>` +
      `<p><a href="docs/report.pdf">the report</a></p></div></body></html>`,
  );
  const article = await parser.extractArticle(page, {
    url: 'https://courier.example/news/ferry',
    rules: { content: '.story', remove: ['.promo'] },
  });
  t.match(article?.content_text ?? '', 'The ferry will keep running');
  t.notMatch(article?.content_html ?? '', 'PROMO-TEXT', "the feed's remove selector ran in the thread");
  t.match(article?.content_html ?? '', 'href="https://courier.example/news/docs/report.pdf"');
  t.equal(await parser.extractArticle(Buffer.from('<html><body><p>Nothing.</p></body></html>'), { url: 'https://courier.example/' }), null);
});
