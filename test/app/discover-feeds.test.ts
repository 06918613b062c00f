import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverFeeds, maxConfirmed, resolveSource } from '../../src/app/discover-feeds.js';
import { readPlatformRules } from '../../src/domain/platforms/read-platform-rules.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const telegramPage = readFileSync(join(repoRoot, 'test', 'fixtures', 'pages', 'telegram', 's-feedmill_news.html'));

const rss = (title: string): string =>
  `<rss version="2.0"><channel><title>${title}</title><item><title>x</title><guid>urn:x</guid></item></channel></rss>`;

// A rule of this test's own over the fixture's address: the slow candidate never answers.
const platformRules = readPlatformRules(
  [
    {
      name: 'fixture',
      platform: 'Fixture',
      match: { hostname: '127.0.0.1', pathname: '/site' },
      produce: [{ url: '{origin}/stall.xml' }, { url: '{origin}/fast.xml' }, { url: '{origin}/gone.xml' }],
    },
    {
      name: 'channel-preview',
      platform: 'Telegram',
      match: { hostname: '127.0.0.1', pathname: '/s/:name' },
      produce: [{ url: '{origin}/s/{name}', format: 'page', extractor: 'telegram-channel' }],
    },
    {
      name: 'many',
      platform: 'Fixture',
      match: { hostname: '127.0.0.1', pathname: '/many' },
      produce: Array.from({ length: 14 }, (_, index) => ({ url: `{origin}/feed-${index}.xml` })),
    },
  ],
  'the test rules',
);

let stallOpen = false;
const requested: string[] = [];
const source = await startFixtureServer((request, response) => {
  requested.push(request.url ?? '');
  if (request.url === '/stall.xml') {
    stallOpen = true;
    request.socket.once('close', () => (stallOpen = false));
    return; // never answered
  }
  if (request.url === '/s/feedmill_news') return void response.writeHead(200, { 'content-type': 'text/html' }).end(telegramPage);
  if (request.url === '/site' || request.url === '/many')
    return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>Site</title></head></html>');
  if (request.url === '/fast.xml' || request.url?.startsWith('/feed-'))
    return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss(`Feed ${request.url}`));
  response.writeHead(404).end();
});
const test = createTestDeps();
const deps = { ...test.deps, settings: { ...test.deps.settings, platformRules, discoverTimeoutMs: 2000 } };
// Threads started before the clock runs: a cold pool's start-up is not what this measures.
await deps.parser.parse(Buffer.from(rss('warm')), { url: 'http://127.0.0.1/' });
await deps.parser.extractPage(Buffer.from('<html><head><link rel="alternate" type="application/rss+xml" href="/f"></head></html>'), {
  url: 'http://127.0.0.1/',
});
t.teardown(async () => {
  await source.close();
  await test.close();
});

t.test('a candidate that does not answer within the budget is listed unconfirmed, without waiting for it', async (t) => {
  const found = await discoverFeeds(deps, new URL(`${source.url}/site`));
  t.ok(stallOpen, 'the discovery answered while the slow host still held its request');
  t.same(
    found.candidates.map((c) => [c.url.replace(source.url, ''), c.confirmed, c.title]),
    [
      ['/stall.xml', false, null],
      ['/fast.xml', true, 'Feed /fast.xml'],
    ],
    'the confirmed one has its title; the one refuted by a 404 is left out',
  );
});

t.test(`at most ${maxConfirmed} candidates are fetched per discovery`, async (t) => {
  requested.length = 0;
  const found = await discoverFeeds({ ...deps, settings: { ...deps.settings, discoverTimeoutMs: 60_000 } }, new URL(`${source.url}/many`));
  t.equal(requested.filter((path) => path.startsWith('/feed-')).length, maxConfirmed);
  t.equal(found.candidates.length, 14, 'the others are still listed');
  t.equal(found.candidates.filter((c) => c.confirmed).length, maxConfirmed);
});

t.test("a rule that names the pasted page itself reads it with the rule's extractor, and the page is not listed twice", async (t) => {
  const pasted = `${source.url}/s/feedmill_news`;
  const found = await discoverFeeds(deps, new URL(pasted));
  t.same(
    found.candidates.map((c) => [c.url, c.source, c.format, c.title]),
    [[pasted, 'rule', 'page', 'Feedmill News']],
  );
  const read = await resolveSource(deps, pasted);
  t.equal(read.extractor, 'telegram-channel');
  t.same(read.followed, { url: pasted, source: 'rule', platform: 'Telegram' });
  t.equal(read.parsed.items[0]?.url, `${source.url}/feedmill_news/42`);
});
