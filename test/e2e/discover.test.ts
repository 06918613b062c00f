import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { binaryEnv, freePort } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { repoRoot } from '../fixtures/repo-root.js';

// GET /v1/discover and create-from-a-page through the binary over HTTPS. Platform host names
// (www.youtube.com, github.com, t.me…) are mapped to 127.0.0.1 by FEEDMILL_STATIC_HOSTS, the
// fetcher's fixed lookup: no name here is ever asked of DNS, and nothing leaves the machine.
t.setTimeout(300_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-discover-'));
const platformHosts = ['www.youtube.com', 'www.reddit.com', 'github.com', 't.me', 'social.example', 'blog.example'];
// An operator's own rule, tried before the built-in ones.
const rulesFile = join(dataDir, 'platform-rules.json');
writeFileSync(
  rulesFile,
  JSON.stringify([
    {
      name: 'blog-forum',
      platform: 'Blog forum',
      match: { hostname: 'blog.example', pathname: '/t/:topic' },
      produce: [{ url: '{origin}/t/{topic}.rss' }],
    },
  ]),
);
const env = {
  ...(await binaryEnv(dataDir)),
  FEEDMILL_STATIC_HOSTS: platformHosts.map((host) => `${host}=127.0.0.1`).join(','),
  FEEDMILL_PLATFORM_RULES: rulesFile,
};

const channelId = 'UCq0EGvLTyy-LLT1oUSO_0FQ';
const rss = (title: string, items: string[]): string =>
  `<rss version="2.0"><channel><title>${title}</title>${items.map((item) => `<item><title>${item}</title><guid>urn:${encodeURIComponent(item)}</guid></item>`).join('')}</channel></rss>`;
const atom = (title: string, entries: string[]): string =>
  `<feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title>${entries.map((entry) => `<entry><title>${entry}</title><id>urn:${encodeURIComponent(entry)}</id><updated>2026-11-20T10:00:00Z</updated></entry>`).join('')}</feed>`;
const html = (body: string): string => `<!doctype html><html><head><title>Page</title>${body}</head><body></body></html>`;

/** Host (without port) → path → [content type, body]. */
const sites: Record<string, Record<string, [string, string]>> = {
  '127.0.0.1': {
    '/blog/': [
      'text/html',
      html(`<link rel="alternate" type="application/atom+xml" title="Posts (Atom)" href="/blog/atom.xml">
<link rel="alternate" type="application/rss+xml" title="Comments" href="/blog/comments.rss">
<link rel="alternate" type="application/feed+json" title="Posts (JSON)" href="/blog/feed.json"></head><body><a href="/blog/podcast.rss">Podcast</a>`),
    ],
    '/blog/atom.xml': ['application/atom+xml', atom('Blog posts', ['First post'])],
    '/blog/comments.rss': ['application/rss+xml', rss('Blog comments', ['A comment'])],
    '/blog/feed.json': [
      'application/feed+json',
      JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Blog posts as JSON', items: [] }),
    ],
    '/blog/podcast.rss': ['application/rss+xml', rss('Blog podcast', ['Episode 1'])],
  },
  'www.youtube.com': {
    '/@feedmill': ['text/html', html(`<link rel="canonical" href="https://www.youtube.com/channel/${channelId}">`)],
  },
  'github.com': {
    '/feedmill/feedmill': ['text/html', html('<meta name="description" content="A repository">')],
    '/feedmill/feedmill/releases.atom': ['application/atom+xml', atom('Release notes from feedmill', ['v1.0.0', 'v0.9.0'])],
  },
  't.me': {
    '/s/feedmill_news': [
      'text/html',
      readFileSync(join(repoRoot, 'test', 'fixtures', 'pages', 'telegram', 's-feedmill_news.html'), 'utf8'),
    ],
  },
  'social.example': {
    '/@alice': ['text/html', html('<meta property="og:title" content="Alice">')],
    '/.well-known/nodeinfo': [
      'application/json',
      JSON.stringify({ links: [{ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.0', href: 'https://social.example/nodeinfo/2.0' }] }),
    ],
    '/@alice.rss': ['application/rss+xml', rss('Public posts from @alice@social.example', ['Hello fediverse'])],
  },
  // A site with /@name pages that is no fediverse server: no NodeInfo.
  'blog.example': {
    '/@bob': ['text/html', html('')],
    '/@bob.rss': ['application/rss+xml', rss('Not a fediverse feed', ['x'])],
    '/t/42.rss': ['application/rss+xml', rss('Topic 42', ['A reply'])],
  },
};
const source = await startFixtureServer((request, response) => {
  const host = (request.headers.host ?? '').replace(/:\d+$/, '');
  const found = sites[host]?.[request.url ?? ''];
  if (found === undefined) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': found[0] }).end(found[1]);
});
const port = new URL(source.url).port;
const closedPort = await freePort();
const { service, call } = await startServiceAs(env, 'alice');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Candidate {
  url: string;
  title: string | null;
  format: string;
  source: string;
  platform?: string;
  confirmed: boolean;
}
interface Discovery {
  candidates: Candidate[];
  page_error: { code: string } | null;
}
const discover = async (url: string, prefix = '/v1'): Promise<Discovery> => {
  const response = await call('GET', `${prefix}/discover?url=${encodeURIComponent(url)}`);
  if (response.status !== 200) throw new Error(`GET /v1/discover for ${url} answered ${response.status}: ${response.text}`);
  return JSON.parse(response.text) as Discovery;
};

t.test('platform rule candidates are listed with the page unreachable and no network', async (t) => {
  const found = await discover(`http://www.reddit.com:${closedPort}/r/rss/`);
  t.same(found.candidates, [
    {
      url: `http://www.reddit.com:${closedPort}/r/rss/.rss`,
      title: null,
      format: 'atom',
      source: 'rule',
      platform: 'Reddit',
      confirmed: false,
    },
  ]);
  t.equal(found.page_error?.code, 'source_unreachable');
});

t.test('a page advertising several feeds: each listed, confirmed with its own title and format', async (t) => {
  const found = await discover(`${source.url}/blog/`, '/api/v1');
  t.same(
    found.candidates.map((c) => [c.url.replace(source.url, ''), c.title, c.format, c.source, c.confirmed]),
    [
      ['/blog/atom.xml', 'Blog posts', 'atom', 'advertised', true],
      ['/blog/feed.json', 'Blog posts as JSON', 'json_feed', 'advertised', true],
      ['/blog/comments.rss', 'Blog comments', 'rss', 'advertised', true],
      ['/blog/podcast.rss', 'Blog podcast', 'rss', 'advertised', true],
    ],
  );
});

t.test("a YouTube @handle is resolved to its channel's feed from the page", async (t) => {
  const found = await discover(`http://www.youtube.com:${port}/@feedmill`);
  t.match(found.candidates[0], {
    url: `https://www.youtube.com/feeds/videos.xml?channel_id=${channelId}`,
    format: 'atom',
    source: 'rule',
    platform: 'YouTube',
  });
});

t.test('an ActivityPub profile is offered once the host shows NodeInfo, and confirmed', async (t) => {
  const found = await discover(`http://social.example:${port}/@alice`);
  t.same(found.candidates[0], {
    url: `http://social.example:${port}/@alice.rss`,
    title: 'Public posts from @alice@social.example',
    format: 'rss',
    source: 'rule',
    platform: 'ActivityPub',
    confirmed: true,
  });
  const other = await discover(`http://blog.example:${port}/@bob`);
  t.notOk(
    other.candidates.some((c) => c.source === 'rule'),
    'a /@name page of a site without NodeInfo is not taken for a fediverse profile',
  );
});

t.test("a Telegram channel's t.me address becomes its t.me/s preview, read by the built-in extractor", async (t) => {
  const pasted = `http://t.me:${port}/feedmill_news`;
  const found = await discover(pasted);
  t.same(found.candidates[0], {
    url: `http://t.me:${port}/s/feedmill_news`,
    title: 'Feedmill News',
    format: 'page',
    source: 'rule',
    platform: 'Telegram',
    confirmed: true,
  });
  const created = await call('POST', '/v1/feeds', { url: pasted });
  t.equal(created.status, 200, created.text);
  const feed = JSON.parse(created.text) as { source_url: string; followed: unknown; items: { url: string }[] };
  t.equal(feed.source_url, pasted);
  t.same(feed.followed, { url: `http://t.me:${port}/s/feedmill_news`, source: 'rule', platform: 'Telegram' });
  t.same(
    feed.items.map((item) => item.url),
    [`http://t.me:${port}/feedmill_news/42`, `http://t.me:${port}/feedmill_news/41`],
  );
});

t.test("creating a feed from a platform page follows the platform's feed, and says so", async (t) => {
  const pasted = `http://github.com:${port}/feedmill/feedmill`;
  const created = await call('POST', '/v1/feeds', { url: pasted });
  t.equal(created.status, 200, created.text);
  const feed = JSON.parse(created.text) as { id: string; title: string; source_url: string; followed: unknown; items: { title: string }[] };
  t.equal(feed.source_url, pasted, 'source_url stays what the user gave');
  t.equal(feed.title, 'Release notes from feedmill');
  t.same(feed.followed, { url: `http://github.com:${port}/feedmill/feedmill/releases.atom`, source: 'rule', platform: 'GitHub' });
  t.same(
    feed.items.map((item) => item.title),
    ['v1.0.0', 'v0.9.0'],
  );
  const graphql = await call('POST', '/graphql', {
    query: `{ feed(id: "${feed.id}") { followed { url source platform } } discover(url: "${pasted}") { candidates { url source platform confirmed } } }`,
  });
  const data = (JSON.parse(graphql.text) as { data: { feed: { followed: unknown }; discover: { candidates: unknown[] } } }).data;
  t.same(data.feed.followed, { url: `http://github.com:${port}/feedmill/feedmill/releases.atom`, source: 'RULE', platform: 'GitHub' });
  t.same(data.discover.candidates[0], {
    url: `http://github.com:${port}/feedmill/feedmill/releases.atom`,
    source: 'RULE',
    platform: 'GitHub',
    confirmed: true,
  });
});

t.test("an operator's rule from FEEDMILL_PLATFORM_RULES is used like a built-in one", async (t) => {
  const found = await discover(`http://blog.example:${port}/t/42`);
  t.same(found.candidates[0], {
    url: `http://blog.example:${port}/t/42.rss`,
    title: 'Topic 42',
    format: 'rss',
    source: 'rule',
    platform: 'Blog forum',
    confirmed: true,
  });
});

t.test('a url that is no http(s) address is refused, naming `url`', async (t) => {
  const response = await call('GET', '/v1/discover?url=notaurl');
  t.equal(response.status, 400);
  const body = JSON.parse(response.text) as { errors: { code: string }[]; message: string };
  t.equal(body.errors[0]?.code, 'validation_failed');
  t.match(body.message, /`url`/);
});
