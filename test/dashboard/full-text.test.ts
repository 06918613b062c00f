import t from 'tap';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { signedInDashboard } from '../fixtures/signed-in-dashboard.js';

/** An article page whose story holds a promo block, so a `remove` rule shows in the preview. */
const storyPage = `<!doctype html><html lang="en"><head><title>Ferry | The Courier</title></head><body>
<header><nav><a href="/news">BOILER-NAV news</a> <a href="/sport">BOILER-NAV sport</a></nav></header>
<main><article><h1>The ferry stays</h1>
<p>ARTICLE-BODY: the harbour council met on Tuesday evening and, after three hours of debate, voted to keep the ferry running through the winter months.</p>
<p class="timetable">TIMETABLE-NOTE: the winter timetable is printed at the harbour office every Monday morning.</p>
<p>Residents had gathered signatures for weeks; the vote was close, and the council will review the timetable again in spring, when the new boat is due.</p>
<p>Fishermen said the decision keeps the island connected, while the treasurer warned that fuel costs may force higher fares before the year is out.</p>
</article></main>
<footer>BOILER-FOOTER © The Courier</footer></body></html>`;

const rss = (link: string): string =>
  `<rss version="2.0"><channel><title>Courier</title><item><title>Ferry</title><link>${link}</link><guid>urn:ferry</guid><description>TEASER only</description></item></channel></rss>`;
const site = await startFixtureServer((request, response) => {
  const base = `http://${request.headers.host ?? ''}`;
  if (request.url === '/story.rss')
    return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss(`${base}/story`));
  if (request.url === '/data.rss')
    return void response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss(`${base}/data.json`));
  if (request.url === '/story') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(storyPage);
  if (request.url === '/data.json') return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"story":1}');
  response.writeHead(404).end();
});
const dashboard = await signedInDashboard('erin');
const { env, app, person: erin } = dashboard;
t.teardown(async () => {
  await dashboard.close();
  await site.close();
});

async function addFeed(path: string): Promise<string> {
  const added = await erin.post('/dashboard/feeds', { url: `${site.url}${path}`, action: 'add' });
  return /^\/dashboard\/feeds\/([A-Za-z0-9_-]{16})$/.exec(String(added.headers.location))?.[1] ?? '';
}
const storyFeed = await addFeed('/story.rss');
const dataFeed = await addFeed('/data.rss');
const settingsOf = { customAuthor: '', sort: 'last_added', minInterval: '' };

t.test('Preview full text reads the latest item with the rules as typed, and saves nothing', async (t) => {
  const preview = await erin.post(`/dashboard/feeds/${storyFeed}/settings`, {
    ...settingsOf,
    fullText: 'on',
    fullTextRemove: '.timetable\n\n',
    action: 'preview',
  });
  t.equal(preview.statusCode, 200);
  const shown = /<article class="article-preview">([\s\S]*?)<\/article><\/section>/.exec(preview.body)?.[1] ?? '';
  t.match(shown, /<p>ARTICLE-BODY: the harbour council/, 'the article, as markup');
  t.notMatch(shown, /TIMETABLE-NOTE/, 'the typed remove rule applied');
  t.notMatch(shown, /BOILER-/, 'no navigation or footer');
  t.match(preview.body, /<input type="checkbox" id="full-text" name="fullText" value="on" checked/, 'the form keeps what was typed');
  t.match(preview.body, /<textarea id="full-text-remove"[^>]*>\.timetable\n\n<\/textarea>/);
  const withoutRule = await erin.post(`/dashboard/feeds/${storyFeed}/settings`, { ...settingsOf, action: 'preview' });
  t.match(withoutRule.body, /TIMETABLE-NOTE/, 'without the rule the paragraph stays');
  const settings = await env.deps.feeds.getById(storyFeed);
  t.same([settings?.settings.fullText, settings?.settings.fullTextRules], [false, null], 'nothing saved');
});

t.test('Preview says why a page gave no article', async (t) => {
  const preview = await erin.post(`/dashboard/feeds/${dataFeed}/settings`, { ...settingsOf, fullText: 'on', action: 'preview' });
  t.equal(preview.statusCode, 200);
  t.match(
    preview.body,
    /Full text failed \(unsupported_content_type\): Expected the page at http:\/\/127\.0\.0\.1:\d+\/data\.json to be text\/html or application\/xhtml\+xml, got `application\/json`/,
  );
});

t.test('saving turns full text on with the rules, as REST reads them; the items show they are pending', async (t) => {
  const saved = await erin.post(`/dashboard/feeds/${storyFeed}/settings`, {
    ...settingsOf,
    fullText: 'on',
    fullTextContent: 'main article',
    fullTextRemove: '.timetable\n.share',
    action: 'save',
  });
  t.equal(saved.statusCode, 303);
  const rest = await app.inject({ method: 'GET', url: `/v1/feeds/${storyFeed}/settings`, headers: { authorization: await restKey() } });
  t.match(rest.json(), { full_text: true, full_text_rules: { content: 'main article', remove: ['.timetable', '.share'] } });
  const page = await erin.get(`/dashboard/feeds/${storyFeed}`);
  t.match(page.body, /id="full-text" name="fullText" value="on" checked/);
  t.match(page.body, /<input id="full-text-content" name="fullTextContent" type="text" value="main article"/);
  t.match(page.body, /<textarea id="full-text-remove"[^>]*>\.timetable\n\.share<\/textarea>/);
  t.match(page.body, /Full text pending/, 'the filled item waits for its article');

  const [item] = await env.deps.items.list(storyFeed, 'last_added', 1);
  const article = item?.article;
  if (!item || !article) {
    t.fail('turning it on fills in the latest item');
    return;
  }
  const reason = 'The page at http://127.0.0.1/story holds no article the extractor could find';
  await env.deps.items.saveArticle(storyFeed, item.key, {
    ...article,
    status: 'failed',
    error: { code: 'no_article_found', message: reason },
  });
  t.match((await erin.get(`/dashboard/feeds/${storyFeed}`)).body, `Full text failed: ${reason}`);

  const off = await erin.post(`/dashboard/feeds/${storyFeed}/settings`, { ...settingsOf, action: 'save' });
  t.equal(off.statusCode, 303);
  const after = await erin.get(`/dashboard/feeds/${storyFeed}`);
  t.notMatch(after.body, /Full text (pending|failed)/, 'with full text off, no status is shown');
  t.notMatch(after.body, /id="full-text" name="fullText" value="on" checked/);
});

t.test('a refused rule is shown beside its field, which keeps what was typed', async (t) => {
  const content = await erin.post(`/dashboard/feeds/${dataFeed}/settings`, {
    ...settingsOf,
    fullText: 'on',
    fullTextContent: 'a::before',
    action: 'save',
  });
  t.equal(content.statusCode, 400);
  t.match(
    content.body,
    /<input id="full-text-content" name="fullTextContent" type="text" value="a::before" aria-invalid="true" aria-describedby="full-text-content-hint full-text-content-error">/,
  );
  t.match(
    content.body,
    /<p class="field-error" id="full-text-content-error">Expected `full_text_rules.content` to be a selector of elements/,
  );
  const remove = await erin.post(`/dashboard/feeds/${dataFeed}/settings`, {
    ...settingsOf,
    fullText: 'on',
    fullTextRemove: '.ok\n:hover',
    action: 'preview',
  });
  t.equal(remove.statusCode, 400, 'the preview checks the rules as saving does');
  t.match(
    remove.body,
    /<textarea id="full-text-remove" name="fullTextRemove" aria-describedby="full-text-remove-hint full-text-remove-error" aria-invalid="true">/,
  );
  t.match(
    remove.body,
    /<p class="field-error" id="full-text-remove-error">Expected `full_text_rules.remove\[1\]` to be a selector whose pseudo-classes/,
  );
  t.equal((await env.deps.feeds.getById(dataFeed))?.settings.fullText, false, 'nothing saved');
});

async function restKey(): Promise<string> {
  await erin.get('/dashboard/keys');
  const created = await erin.post('/dashboard/keys', { scopes: ['read', 'write'] });
  return /id="new-header" type="text" value="(Bearer [^"]+)"/.exec(created.body)?.[1] ?? '';
}
