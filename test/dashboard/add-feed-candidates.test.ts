import t from 'tap';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { signedInDashboard } from '../fixtures/signed-in-dashboard.js';

const rss = (title: string, item: string): string =>
  `<rss version="2.0"><channel><title>${title}</title><item><title>${item}</title><guid>urn:${item}</guid></item></channel></rss>`;
const site = await startFixtureServer((request, response) => {
  if (request.url === '/')
    return void response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<html><head><title>A blog</title><link rel="alternate" type="application/rss+xml" title="Posts" href="/posts.rss"></head><body><a href="/podcast.rss">Podcast</a></body></html>',
      );
  if (request.url === '/posts.rss')
    return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('Blog posts', 'A post'));
  if (request.url === '/podcast.rss')
    return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('Blog podcast', 'An episode'));
  response.writeHead(404).end();
});
const dashboard = await signedInDashboard('dave');
const { env, person: dave } = dashboard;
t.teardown(async () => {
  await dashboard.close();
  await site.close();
});

t.test('Preview lists the feeds found at a page, with where each was found', async (t) => {
  const page = await dave.post('/dashboard/feeds', { url: `${site.url}/`, action: 'preview' });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<legend>Feeds found at this address<\/legend>/);
  t.match(page.body, /id="candidate-auto" name="candidate" value="" checked/, 'by default feedmill picks');
  t.match(
    page.body,
    new RegExp(
      `id="candidate-0" name="candidate" value="${site.url}/posts\\.rss"[^>]*><label for="candidate-0">Blog posts <span class="muted">\\(linked by the page · rss\\)`,
    ),
  );
  t.match(
    page.body,
    new RegExp(`id="candidate-1" name="candidate" value="${site.url}/podcast\\.rss"[^>]*><label for="candidate-1">Blog podcast`),
  );
});

t.test('Add feed with a candidate picked creates the feed from that candidate', async (t) => {
  const added = await dave.post('/dashboard/feeds', { url: `${site.url}/`, candidate: `${site.url}/podcast.rss`, action: 'add' });
  t.equal(added.statusCode, 303);
  const { feeds } = await env.deps.feeds.list('dave', { limit: 10, offset: 0 });
  t.same(
    feeds.map((feed) => [feed.title, feed.sourceUrl]),
    [['Blog podcast', `${site.url}/podcast.rss`]],
  );
});
