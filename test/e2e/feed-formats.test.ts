import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { binaryEnv } from '../fixtures/feedmill-process.js';
import { startServiceAs } from '../fixtures/feedmill-service.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';

// The binary over HTTPS, adding feeds the parser learnt to read in issue #17's last round: what a
// user gets from POST /v1/feeds, through the fetcher, the parser pool and the store.
t.setTimeout(300_000);
const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-e2e-formats-'));
const env = await binaryEnv(dataDir);

const documents: Record<string, Buffer> = {
  '/channel.cdf': Buffer.from(`<?xml version="1.0"?>
<CHANNEL HREF="./" BASE="/site/" LASTMOD="2004-04-06T23:05:43-05:00">
  <TITLE>A CDF channel</TITLE><ABSTRACT>Pages of the site</ABSTRACT>
  <ITEM HREF="first.html" LASTMOD="2004-04-06T23:05:43-05:00"><TITLE>First page</TITLE><ABSTRACT>The first</ABSTRACT></ITEM>
</CHANNEL>`),
  '/entry.atom': Buffer.from(`<?xml version="1.0"?>
<entry xmlns="http://www.w3.org/2005/Atom"><title>One post</title><id>urn:uuid:60a76c80</id>
  <updated>2009-08-31T18:55:12Z</updated><link href="/posts/one"/></entry>`),
  // Declared by Python's name for Mac Central European, where byte 0x80 is Ä; dated in German.
  '/german.rss': Buffer.from(
    `<?xml version="1.0" encoding="maccentraleurope"?><rss version="2.0"><channel><title>\x80rger</title>
<item><title>Neu</title><guid>urn:neu</guid><pubDate>Mi, 12 Okt 2022 10:00:00 +0200</pubDate></item></channel></rss>`,
    'latin1',
  ),
  // Every item sits inside an itunes:category left unclosed.
  '/podcast.rss': Buffer.from(`<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>
<itunes:category text="Technology">
<item><title>Episode 2</title><guid>urn:ep2</guid></item>
<item><title>Episode 1</title><guid>urn:ep1</guid></item>
</channel></rss>`),
};
const source = await startFixtureServer((request, response) => {
  const body = documents[request.url ?? ''];
  if (body === undefined) return void response.writeHead(404).end();
  response.writeHead(200, { 'content-type': 'application/xml' }).end(body);
});
const { service, call } = await startServiceAs(env, 'alice');
t.teardown(async () => {
  await service.stop('SIGKILL');
  await source.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Feed {
  title: string;
  items: { title: string; url: string; date_published: string | null }[];
}
const create = async (path: string): Promise<Feed> => {
  const response = await call('POST', '/v1/feeds', { url: `${source.url}${path}` });
  if (response.status !== 200) throw new Error(`POST /v1/feeds for ${path} answered ${response.status}: ${response.text}`);
  return JSON.parse(response.text) as Feed;
};
const summary = (feed: Feed): unknown[] => [feed.title, feed.items.map((item) => [item.title, item.url, item.date_published])];

t.test('a CDF channel, its items resolved against its BASE and dated by LASTMOD', async (t) => {
  t.same(summary(await create('/channel.cdf')), [
    'A CDF channel',
    [['First page', `${source.url}/site/first.html`, '2004-04-07T04:05:43.000Z']],
  ]);
});

t.test('an Atom Entry Document is a feed of its one entry', async (t) => {
  const feed = await create('/entry.atom');
  t.same(
    feed.items.map((item) => [item.title, item.url, item.date_published]),
    [['One post', `${source.url}/posts/one`, '2009-08-31T18:55:12.000Z']],
  );
});

t.test("a feed declared in Python's codec name and dated in German", async (t) => {
  t.same(summary(await create('/german.rss')), ['Ärger', [['Neu', '', '2022-10-12T08:00:00.000Z']]]);
});

t.test('a podcast whose items sit inside an unclosed itunes:category', async (t) => {
  const feed = await create('/podcast.rss');
  t.same(feed.items.map((item) => item.title).sort(), ['Episode 1', 'Episode 2']);
});
