import t from 'tap';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { signedInDashboard } from '../fixtures/signed-in-dashboard.js';

// The add-feed form's render, selectors and fetch options, and a feed's selectors and fetch
// options in its settings: through the same use cases as REST, refusals beside their field,
// everything typed kept but the password.
const apiKey = 'k3y-only-the-source-knows';
const password = 'hunter2-never-shown';
const basic = `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`;
const listing = `<!doctype html><html><head><title>Members' board</title>
<link rel="alternate" type="application/rss+xml" href="/elsewhere.xml"></head><body>
<div class="card"><h3><a href="/notes/1">First note</a></h3><time datetime="2024-03-05">5 March</time></div>
<div class="card"><h3><a href="/notes/2">Second note</a></h3><time datetime="2024-03-04">4 March</time></div>
</body></html>`;
/** What the members' page saw: the key and the login of each request. */
const seen: { key: string | undefined; authorization: string | undefined }[] = [];
const site = await startFixtureServer((request, response) => {
  if (request.url === '/members/') {
    const key = request.headers['x-api-key'] as string | undefined;
    seen.push({ key, authorization: request.headers.authorization });
    if (key !== apiKey || request.headers.authorization !== basic) return void response.writeHead(401).end();
    return void response.writeHead(200, { 'content-type': 'text/html' }).end(listing);
  }
  if (request.url === '/elsewhere.xml') {
    return void response
      .writeHead(200, { 'content-type': 'application/rss+xml' })
      .end('<rss version="2.0"><channel><title>Elsewhere</title><item><title>Digest</title><guid>urn:digest</guid></item></channel></rss>');
  }
  if (request.url === '/open/') return void response.writeHead(200, { 'content-type': 'text/html' }).end(listing);
  response.writeHead(404).end();
});
const dashboard = await signedInDashboard('erin');
const { env, app, person: erin } = dashboard;
t.teardown(async () => {
  await dashboard.close();
  await site.close();
});

const membersUrl = `${site.url}/members/`;
const typed = {
  url: membersUrl,
  render: 'never',
  'selectors.item': '.card',
  'selectors.title': 'h3 a',
  'selectors.date': 'time@datetime',
  'fetch.user_agent': 'erin-reader/1.0',
  'fetch.headers': `X-Api-Key: ${apiKey}`,
  'fetch.basic_auth.username': 'reader',
  'fetch.basic_auth.password': password,
};
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

t.test('the add-feed form offers render with what each costs, and selectors and fetch options folded away', async (t) => {
  const page = await erin.get('/dashboard/feeds');
  t.match(
    page.body,
    /<label for="render">Render the page in a browser<\/label>\s*<select id="render" name="render" aria-describedby="render-hint">/,
  );
  t.match(
    page.body,
    /<option value="auto" selected>Automatic[^<]*<\/option><option value="always">Always \(needs a browser on the server\)<\/option><option value="never">Never<\/option>/,
  );
  t.match(page.body, /<p class="hint" id="render-hint">Rendering runs the page’s scripts in a browser on the server: about 2 seconds/);
  t.match(page.body, /<details id="selectors">\s*<summary>Choose the items yourself \(CSS selectors\)<\/summary>/, 'closed until used');
  t.match(page.body, /<code>h2 a<\/code>, Date <code>time@datetime<\/code>/, 'with an example');
  for (const field of ['item', 'title', 'link', 'date', 'summary', 'image', 'author']) {
    t.match(
      page.body,
      new RegExp(
        `<input id="selector-${field}" name="selectors\\.${field}" type="text" value="" aria-describedby="selector-${field}-hint">`,
      ),
    );
  }
  t.match(page.body, /<details id="fetch-options">\s*<summary>Fetch options \(user agent, headers, login\)<\/summary>/);
  t.match(page.body, /<textarea id="fetch-headers" name="fetch\.headers" rows="3" aria-describedby="fetch-headers-hint"><\/textarea>/);
  t.match(page.body, /<input id="fetch-password" name="fetch\.basic_auth\.password" type="password" value="" autocomplete="new-password"/);
});

t.test('Preview reads the page with the selectors and the fetch options, and keeps all but the password', async (t) => {
  seen.length = 0;
  const page = await erin.post('/dashboard/feeds', { ...typed, action: 'preview' });
  t.equal(page.statusCode, 200, page.body.slice(0, 400));
  t.match(page.body, /<section aria-label="Preview"/);
  t.match(page.body, /First note[\s\S]*Second note/, 'the items the selectors name');
  t.notMatch(page.body, /Feeds found at this address/, 'no candidates: the selectors decide');
  t.ok(
    seen.length > 0 && seen.every((request) => request.key === apiKey && request.authorization === basic),
    'every fetch brought the key and the login',
  );
  t.match(page.body, /<details id="selectors" open>/);
  t.match(page.body, /name="selectors\.date" type="text" value="time@datetime"/);
  t.match(page.body, /<details id="fetch-options" open>/);
  t.match(page.body, /name="fetch\.user_agent" type="text" value="erin-reader\/1\.0"/);
  t.match(page.body, new RegExp(`>X-Api-Key: ${escaped(apiKey)}</textarea>`));
  t.match(page.body, /name="fetch\.basic_auth\.username" type="text" value="reader"/);
  t.notMatch(page.body, password, 'the password is not written back');
  t.match(page.body, /Type the password again: it is never sent back to this page\./);
  t.match(page.body, /<option value="never" selected>Never<\/option>/);
  t.equal((await env.deps.feeds.list('erin', { limit: 10, offset: 0 })).total, 0, 'nothing saved');
});

t.test('a selector that does not parse is refused beside its input, and nothing typed but the password is lost', async (t) => {
  const page = await erin.post('/dashboard/feeds', { ...typed, 'selectors.title': 'h3 a[[', action: 'add' });
  t.equal(page.statusCode, 400);
  t.match(
    page.body,
    /<input id="selector-title" name="selectors\.title" type="text" value="h3 a\[\[" aria-invalid="true" aria-describedby="selector-title-hint selector-title-error">/,
  );
  t.match(page.body, /<p class="field-error" id="selector-title-error">Expected `selectors\.title` to be a CSS selector/);
  t.equal(page.body.match(/class="field-error"/g)?.length, 1, 'one error, beside its field');
  t.match(page.body, new RegExp(`id="feed-url" name="url" type="url" value="${escaped(membersUrl)}"`));
  t.match(page.body, /name="selectors\.item" type="text" value="\.card"/);
  t.match(page.body, new RegExp(`>X-Api-Key: ${escaped(apiKey)}</textarea>`));
  t.notMatch(page.body, password);
  t.equal((await env.deps.feeds.list('erin', { limit: 10, offset: 0 })).total, 0, 'nothing saved');
});

t.test('a forbidden header is refused beside the headers, naming it; a line without a colon too, without repeating it', async (t) => {
  const host = await erin.post('/dashboard/feeds', {
    ...typed,
    'fetch.headers': `X-Api-Key: ${apiKey}\nHost: elsewhere.example`,
    action: 'preview',
  });
  t.equal(host.statusCode, 400);
  t.match(
    host.body,
    /<textarea id="fetch-headers" name="fetch\.headers" rows="3" aria-invalid="true" aria-describedby="fetch-headers-hint fetch-headers-error">/,
  );
  t.match(host.body, /<p class="field-error" id="fetch-headers-error">Expected `fetch\.headers\.Host` to be header names among/);
  t.match(host.body, /Host: elsewhere\.example<\/textarea>/, 'the lines stay as typed');
  t.notMatch(host.body, password);
  const bare = await erin.post('/dashboard/feeds', { ...typed, 'fetch.headers': 'secret-without-a-name', action: 'add' });
  t.equal(bare.statusCode, 400);
  t.match(
    bare.body,
    /<p class="field-error" id="fetch-headers-error">Expected `fetch\.headers` to be one header a line, written `Name: value`, got line 1 without a name and a colon<\/p>/,
  );
  t.equal(bare.body.match(/secret-without-a-name/g)?.length, 1, 'only in its textarea');
});

t.test('a user name with a colon is refused beside the user name', async (t) => {
  const page = await erin.post('/dashboard/feeds', { ...typed, 'fetch.basic_auth.username': 'read:er', action: 'add' });
  t.equal(page.statusCode, 400);
  t.match(
    page.body,
    /id="fetch-username" name="fetch\.basic_auth\.username" type="text" value="read:er" autocomplete="off" aria-invalid="true"/,
  );
  t.match(page.body, /<p class="field-error" id="fetch-username-error">Expected `fetch\.basic_auth\.username`/);
});

t.test('render always without a browser on the server is said beside render', async (t) => {
  const page = await erin.post('/dashboard/feeds', { url: `${site.url}/open/`, render: 'always', action: 'preview' });
  t.equal(page.statusCode, 400);
  t.match(page.body, /<select id="render" name="render" aria-invalid="true" aria-describedby="render-hint render-error">/);
  t.match(page.body, /<p class="field-error" id="render-error">[^<]+<\/p>/);
  t.match(page.body, /<option value="always" selected>/);
});

t.test('selectors that match nothing are said beside the item selector', async (t) => {
  const page = await erin.post('/dashboard/feeds', { url: `${site.url}/open/`, 'selectors.item': '.nothing-here', action: 'preview' });
  t.equal(page.statusCode, 400);
  t.match(page.body, /<p class="field-error" id="selector-item-error">[^<]+<\/p>/);
  t.notMatch(page.body, /id="feed-url-error"/);
});

let feedId = '';
t.test('Add feed stores the selectors and the fetch options, as the API reads them back', async (t) => {
  const added = await erin.post('/dashboard/feeds', { ...typed, action: 'add' });
  t.equal(added.statusCode, 303, added.body.slice(0, 400));
  feedId = /\/dashboard\/feeds\/([A-Za-z0-9_-]{16})$/.exec(String(added.headers.location))?.[1] ?? '';
  const rest = await app.inject({
    method: 'GET',
    url: `/v1/feeds/${feedId}/settings`,
    headers: { authorization: await env.bearer('erin') },
  });
  const settings = rest.json<Record<string, unknown>>();
  t.same(settings['selectors'], { item: '.card', title: 'h3 a', date: 'time@datetime' });
  t.same(settings['fetch'], { user_agent: 'erin-reader/1.0', header_names: ['X-Api-Key'], basic_auth_set: true });
  t.equal(settings['render'], 'never');
  const feed = await erin.get(`/dashboard/feeds/${feedId}`);
  t.match(feed.body, /First note/);
});

t.test('the settings show what is stored of the fetch options, never a value', async (t) => {
  const page = await erin.get(`/dashboard/feeds/${feedId}`);
  t.match(page.body, /<form class="panel" method="post" action="\/dashboard\/feeds\/[^/]+\/fetch" aria-label="Fetch options">/);
  t.match(
    page.body,
    /<p id="fetch-stored">Stored: user agent <code>erin-reader\/1\.0<\/code>; headers <code>X-Api-Key<\/code> \(values not shown\); a login \(not shown\)\.<\/p>/,
  );
  t.notMatch(page.body, apiKey);
  t.notMatch(page.body, password);
  t.notMatch(page.body, /value="reader"/, 'not even the user name');
  t.match(page.body, /<details id="selectors" open>/, 'stored selectors are shown');
  t.match(page.body, /name="selectors\.item" type="text" value="\.card"/);
  t.match(page.body, /<button type="submit" name="action" value="clear" class="secondary">Clear selectors<\/button>/);
  t.match(page.body, /<button type="submit" name="action" value="clear" class="secondary">Remove fetch options<\/button>/);
});

t.test('replacing the fetch options in settings stores exactly what was typed; a refusal keeps it beside its field', async (t) => {
  const refused = await erin.post(`/dashboard/feeds/${feedId}/fetch`, {
    'fetch.user_agent': 'erin-reader/2.0',
    'fetch.headers': 'Connection: close',
    'fetch.basic_auth.username': 'reader',
    'fetch.basic_auth.password': password,
    action: 'save',
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.body, /<p class="field-error" id="fetch-headers-error">Expected `fetch\.headers\.Connection`/);
  t.match(refused.body, /name="fetch\.user_agent" type="text" value="erin-reader\/2\.0"/);
  t.notMatch(refused.body, password);
  const saved = await erin.post(`/dashboard/feeds/${feedId}/fetch`, {
    'fetch.user_agent': '',
    'fetch.headers': 'X-Api-Key: another\nAccept-Language: en',
    action: 'save',
  });
  t.equal(saved.statusCode, 303);
  const page = await erin.get(`/dashboard/feeds/${feedId}`);
  t.match(
    page.body,
    /<p id="fetch-stored">Stored: headers <code>X-Api-Key<\/code>, <code>Accept-Language<\/code> \(values not shown\)\.<\/p>/,
  );
  const cleared = await erin.post(`/dashboard/feeds/${feedId}/fetch`, { action: 'clear' });
  t.equal(cleared.statusCode, 303);
  t.match((await erin.get(`/dashboard/feeds/${feedId}`)).body, /<p id="fetch-stored">None stored\.<\/p>/);
  t.equal((await env.deps.feeds.getById(feedId))?.settings.fetchOptions, null);
});

t.test('selectors are edited and cleared in settings; a refused one stays beside its input', async (t) => {
  // The members' page needs the options that were just removed: the open copy is read instead.
  const open = await erin.post('/dashboard/feeds', { url: `${site.url}/open/`, 'selectors.item': '.card', action: 'add' });
  t.equal(open.statusCode, 303);
  const openId = /([A-Za-z0-9_-]{16})$/.exec(String(open.headers.location))?.[1] ?? '';
  const refused = await erin.post(`/dashboard/feeds/${openId}/selectors`, {
    'selectors.item': '.card',
    'selectors.link': 'a[[',
    action: 'save',
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.body, /name="selectors\.link" type="text" value="a\[\[" aria-invalid="true"/);
  t.match(refused.body, /<p class="field-error" id="selector-link-error">Expected `selectors\.link`/);
  const edited = await erin.post(`/dashboard/feeds/${openId}/selectors`, {
    'selectors.item': 'div.card',
    'selectors.title': 'h3',
    action: 'save',
  });
  t.equal(edited.statusCode, 303);
  t.same((await env.deps.feeds.getById(openId))?.settings.selectors, { item: 'div.card', title: 'h3' });
  const cleared = await erin.post(`/dashboard/feeds/${openId}/selectors`, { 'selectors.item': 'div.card', action: 'clear' });
  t.equal(cleared.statusCode, 303);
  const after = await env.deps.feeds.getById(openId);
  t.equal(after?.settings.selectors, null);
  t.equal(after?.fetchUrl, `${site.url}/elsewhere.xml`, 'without selectors the feed the page links to is read');
  t.match((await erin.get(`/dashboard/feeds/${openId}`)).body, /<details id="selectors">/, 'folded away again');
});

t.test('a keyword feed has no page to select in or fetch options to send: its page offers neither', async (t) => {
  const model = await env.deps.feeds.getById(feedId);
  if (!model) throw new Error('the feed made above is gone');
  const id = 'kwfeed0123456789';
  await env.deps.feeds.insert({ ...model, id, sourceUrl: 'https://feeds.example.test/keyword?keyword=ferries&region=US:en' });
  const page = await erin.get(`/dashboard/feeds/${id}`);
  t.equal(page.statusCode, 200);
  t.notMatch(page.body, /aria-label="Selectors"/);
  t.notMatch(page.body, /aria-label="Fetch options"/);
  t.match(page.body, /<select id="render" name="render"/, 'render stays in the settings');
});
