import t from 'tap';
import { createFeed } from '../../src/app/create-feed.js';
import { articleHost } from '../../src/app/host-gate.js';
import { previewArticle } from '../../src/app/preview-article.js';
import { sleep } from '../fixtures/eventually.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const story =
  'ARTICLE-BODY: the harbour council met on Tuesday evening and, after three hours of debate, voted to keep the ferry running through the winter. Residents had gathered signatures for weeks, and the council will review the timetable again in spring.';
let articleRequests = 0;
const source = await startFixtureServer((request, response) => {
  if (request.url === '/feed.xml') {
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(
        `<rss version="2.0"><channel><title>Teasers</title><item><title>One</title><link>${source.url}/story</link><guid>urn:one</guid><description>TEASER</description></item></channel></rss>`,
      );
  }
  articleRequests += 1;
  response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><article><h1>One</h1><p>${story}</p></article></body></html>`);
});
t.teardown(async () => {
  await source.close();
  await env.close();
});
const alice = { accountId: 'alice', keyId: 'key-alice', scopes: ['read', 'write'] as const };

t.test('which host an address counts against', async (t) => {
  t.equal(articleHost('https://news.example/a?b=c'), 'news.example');
  t.equal(articleHost('http://news.example:8080/a'), 'news.example', 'the port and scheme do not make another lane');
  t.equal(articleHost('not a url'), '', 'an address that does not parse shares the lane of such addresses');
});

t.test('the preview waits for a slot of the per-host gate, as article jobs do', async (t) => {
  const { feed } = await createFeed(env.deps, { ...alice, scopes: [...alice.scopes] }, { url: `${source.url}/feed.xml` });
  const host = articleHost(`${source.url}/story`);
  // Every slot of the host (test deps: 2) taken by article fetches that have not finished.
  const releases: (() => void)[] = [];
  const holders = [1, 2].map(() => env.deps.articleGate(host, () => new Promise<void>((resolve) => releases.push(resolve))));
  let settled = false;
  const preview = previewArticle(env.deps, alice, feed.id, null).finally(() => (settled = true));
  await sleep(500);
  t.equal(settled, false, 'the preview has not finished while the host has no free slot');
  t.equal(articleRequests, 0, 'and has not asked the site for the page');
  for (const release of releases) release();
  await Promise.all(holders);
  const shown = await preview;
  t.match(shown, { url: `${source.url}/story`, article: { text: /ARTICLE-BODY/ } }, 'once a slot is free, it reads the article');
  t.equal(articleRequests, 1);
});
