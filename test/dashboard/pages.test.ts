import t from 'tap';
import { createUser } from '../../src/app/users.js';
import { mountDashboard } from '../../src/dashboard/mount.js';
import { buildHttpApp } from '../../src/http/app.js';
import { dashboardClient, type DashboardClient } from '../fixtures/dashboard-client.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { startWebhookSink } from '../fixtures/webhook-sink.js';

// The clock runs ahead when a test needs time to pass (a refresh on demand waits 30 s after a fetch).
let ahead = 0;
const env = createTestDeps({ clock: { now: () => new Date(Date.now() + ahead) } });
const app = await buildHttpApp(env.deps, { httpsOnly: false });
await mountDashboard(app, env.deps);
const source = await startRssSource(3);
const sink = await startWebhookSink();
t.teardown(async () => {
  await app.close();
  await source.close();
  await sink.close();
  await env.close();
});
const password = 'correct horse battery';
await createUser(env.deps, { account: 'alice', email: 'alice@example.test', password });
await createUser(env.deps, { account: 'bob', email: 'bob@example.test', password });

async function signedIn(email: string): Promise<DashboardClient> {
  const browser = dashboardClient(app);
  await browser.signIn(email, password);
  await browser.get('/dashboard/feeds');
  return browser;
}

const alice = await signedIn('alice@example.test');
const bob = await signedIn('bob@example.test');
let feedId = '';

t.test('the navigation names every section and marks the current one', async (t) => {
  const page = await alice.get('/dashboard/bundles');
  t.match(page.body, /<nav aria-label="Main">/);
  for (const [path, label] of [
    ['feeds', 'Feeds'],
    ['bundles', 'Bundles'],
    ['keys', 'API keys'],
    ['webhooks', 'Webhooks'],
  ]) {
    t.match(page.body, new RegExp(`<a href="/dashboard/${path}"[^>]*>${label}</a>`));
  }
  t.match(page.body, /<a href="\/dashboard\/bundles" aria-current="page">Bundles<\/a>/);
});

t.test('Preview reads the source and stores nothing; the URL stays in the field', async (t) => {
  const page = await alice.post('/dashboard/feeds', { url: source.url, action: 'preview' });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<section aria-label="Preview"/);
  t.match(page.body, /Fixture &amp; Co/);
  t.match(page.body, new RegExp(`id="feed-url" name="url" type="url" value="${source.url.replace(/[.]/g, '\\.')}"`));
  t.equal((await env.deps.feeds.list('alice', { limit: 10, offset: 0 })).total, 0, 'nothing saved');
});

t.test('a refused address is shown next to the field, which keeps what was typed', async (t) => {
  const page = await alice.post('/dashboard/feeds', { url: 'ftp://files.example/feed', action: 'add' });
  t.equal(page.statusCode, 400);
  t.match(
    page.body,
    /id="feed-url" name="url" type="url" value="ftp:\/\/files\.example\/feed"[^>]* aria-invalid="true" aria-describedby="[^"]*feed-url-error"/,
  );
  t.match(page.body, /<p class="field-error" id="feed-url-error">[^<]*http/);
});

t.test('Add feed stores it and opens its page with items, health and the hosted address', async (t) => {
  const added = await alice.post('/dashboard/feeds', { url: source.url, action: 'add' });
  t.equal(added.statusCode, 303);
  feedId = /^\/dashboard\/feeds\/([A-Za-z0-9_-]{16})$/.exec(String(added.headers.location))?.[1] ?? '';
  t.ok(feedId, 'redirected to the feed page');
  const page = await alice.get(`/dashboard/feeds/${feedId}`);
  t.equal(page.statusCode, 200);
  t.match(page.body, /<h1>Fixture &amp; Co<\/h1>/);
  t.match(page.body, /<ol id="feed-items" data-live class="items" aria-label="Items">/);
  t.equal(page.body.match(/<li><a href="http:\/\/127\.0\.0\.1/g)?.length, 3, 'three items');
  t.match(
    page.body,
    new RegExp(
      `<label for="hosted-address">Hosted feed address</label>\\s*<div class="copy-row"><input id="hosted-address" type="text" value="https://feeds\\.example\\.test/feeds/${feedId}\\.xml" readonly>`,
    ),
  );
  t.match(page.body, new RegExp(`<main id="content" data-live-feeds="${feedId}">`));
  t.match(page.body, /<section id="feed-health" data-live class="panel" aria-label="Health">/);
  t.match(page.body, /<strong>State:<\/strong> <span class="state-active">active<\/span> · <strong>Last outcome:<\/strong> changed/);
  const list = await alice.get('/dashboard/feeds');
  t.match(
    list.body,
    new RegExp(
      `<a href="/dashboard/feeds/${feedId}">Fixture &amp; Co</a></th><td><time[^>]*>[^<]+</time></td><td><span class="state-active">active</span> · changed</td><td><time`,
    ),
  );
});

t.test('another account’s feed is not found, in the page and in every form', async (t) => {
  t.equal((await bob.get(`/dashboard/feeds/${feedId}`)).statusCode, 404);
  t.equal((await bob.post(`/dashboard/feeds/${feedId}`, { title: 'mine now', description: '', icon: '' })).statusCode, 404);
  t.equal((await bob.post(`/dashboard/feeds/${feedId}/delete`, {})).statusCode, 404);
  t.match((await alice.get(`/dashboard/feeds/${feedId}`)).body, /<h1>Fixture &amp; Co<\/h1>/, 'unchanged');
});

t.test('editing the title and the custom author shows in the page and in the REST API', async (t) => {
  await alice.get(`/dashboard/feeds/${feedId}`);
  const saved = await alice.post(`/dashboard/feeds/${feedId}`, { title: 'Renamed <b>feed</b>', description: 'About things', icon: '' });
  t.equal(saved.statusCode, 303);
  const settings = await alice.post(`/dashboard/feeds/${feedId}/settings`, { customAuthor: 'Newsroom', sort: 'date' });
  t.equal(settings.statusCode, 303);
  const page = await alice.get(`/dashboard/feeds/${feedId}`);
  t.match(page.body, /<h1>Renamed &lt;b&gt;feed&lt;\/b&gt;<\/h1>/, 'escaped, never markup');
  t.match(page.body, /Newsroom/);
  const rest = await app.inject({ method: 'GET', url: `/v1/feeds/${feedId}`, headers: { authorization: await env.bearer('alice') } });
  const body = rest.json<{ title: string; items: { authors: { name: string }[] }[] }>();
  t.equal(body.title, 'Renamed <b>feed</b>');
  t.ok(body.items.every((item) => item.authors[0]?.name === 'Newsroom'));
});

t.test('a refused edit keeps every typed value and names the field', async (t) => {
  const long = 'x'.repeat(501);
  const page = await alice.post(`/dashboard/feeds/${feedId}`, { title: long, description: 'typed description', icon: '' });
  t.equal(page.statusCode, 400);
  t.match(page.body, new RegExp(`id="title" name="title" type="text" value="${long}" aria-invalid="true"`));
  t.match(page.body, /value="typed description"/);
  t.match(page.body, /Expected `title` to be a string of 1 to 500 characters, got 501 characters/);
  const author = await alice.post(`/dashboard/feeds/${feedId}/settings`, { customAuthor: 'y'.repeat(201), sort: 'date' });
  t.equal(author.statusCode, 400);
  t.match(author.body, /Expected `customAuthor` to be a string of at most 200 characters, got 201 characters/);
});

t.test('bundles: create, add a feed, see its items, remove it, delete', async (t) => {
  await alice.get('/dashboard/bundles');
  const empty = await alice.post('/dashboard/bundles', { name: '' });
  t.equal(empty.statusCode, 400);
  t.match(empty.body, /Expected `name` to be a string of 1 to 200 characters, got 0 characters/);
  const created = await alice.post('/dashboard/bundles', { name: 'Morning read' });
  t.equal(created.statusCode, 303);
  const bundlePath = String(created.headers.location);
  const bundleId = /\/dashboard\/bundles\/(_[A-Za-z0-9_-]{16})$/.exec(bundlePath)?.[1] ?? '';
  t.ok(bundleId);
  t.match((await alice.get(bundlePath)).body, /<label for="bundle-feed">Feed<\/label>/);
  t.equal((await alice.post(`${bundlePath}/feeds`, { feedId })).statusCode, 303);
  const page = await alice.get(bundlePath);
  t.match(page.body, /<ul class="plain" aria-label="Feeds in this bundle">/);
  t.match(page.body, /Remove Renamed &lt;b&gt;feed&lt;\/b&gt;<\/button>/);
  t.equal(page.body.match(/<ol id="bundle-items"[^>]*>/g)?.length, 1);
  t.equal(page.body.match(/<li><a href="http:\/\/127\.0\.0\.1/g)?.length, 3);
  t.equal((await alice.post(`${bundlePath}/feeds/${feedId}/remove`, {})).statusCode, 303);
  t.match((await alice.get(bundlePath)).body, /No feeds in this bundle yet/);
  t.equal((await alice.post(`${bundlePath}/delete`, {})).statusCode, 303);
  t.equal((await alice.get(bundlePath)).statusCode, 404);
});

t.test('API keys: the secret is shown once and works; revoking it makes the API answer 401', async (t) => {
  await alice.get('/dashboard/keys');
  const none = await alice.post('/dashboard/keys', {});
  t.equal(none.statusCode, 400);
  t.match(none.body, /Choose at least one scope/);
  const created = await alice.post('/dashboard/keys', { scopes: ['read', 'write'] });
  t.equal(created.statusCode, 200);
  const header = /id="new-header" type="text" value="(Bearer [^"]+)"/.exec(created.body)?.[1] ?? '';
  const keyId = /Bearer (fmk_[^:]+):/.exec(header)?.[1] ?? '';
  t.ok(keyId, 'the page shows the Authorization header');
  t.match(created.body, /shown only this once/);
  t.equal(created.headers['cache-control'], 'no-store');
  const api = await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization: header } });
  t.equal(api.statusCode, 200);
  t.equal(api.json<{ total: number }>().total, 1, 'the key acts for the signed-in account');
  const list = await alice.get('/dashboard/keys');
  t.notMatch(list.body, /new-secret/, 'the list never shows a secret again');
  t.match(list.body, new RegExp(`aria-label="Revoke ${keyId}"`));
  t.equal((await bob.get(`/dashboard/keys/${keyId}/revoke`)).statusCode, 404, 'bob is not even asked about alice’s key');
  t.equal((await bob.post(`/dashboard/keys/${keyId}/revoke`, {})).statusCode, 404, 'bob cannot revoke alice’s key');
  const confirm = await alice.get(`/dashboard/keys/${keyId}/revoke`);
  t.match(confirm.body, new RegExp(`<h1>Revoke <code>${keyId}</code>\\?</h1>`));
  t.match(confirm.body, /<button type="submit" class="danger">Revoke permanently<\/button> <a href="\/dashboard\/keys">Cancel<\/a>/);
  const revoked = await alice.post(`/dashboard/keys/${keyId}/revoke`, {});
  t.equal(revoked.statusCode, 303);
  t.equal((await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization: header } })).statusCode, 401);
});

t.test('webhooks: add one, send the test request and read it in the call history', async (t) => {
  await alice.get('/dashboard/webhooks');
  const badFilter = await alice.post('/dashboard/webhooks', { url: sink.url, scope: 'all', filter_mode: 'json', filters: '{not json' });
  t.equal(badFilter.statusCode, 400);
  t.match(badFilter.body, /id="webhook-filters" name="filters"[^>]*aria-invalid="true">\{not json<\/textarea>/);
  t.match(badFilter.body, /`filters` must be JSON/);
  const created = await alice.post('/dashboard/webhooks', { url: sink.url, scope: 'feeds', feeds: feedId, filters: '' });
  t.equal(created.statusCode, 200);
  t.match(created.body, /id="signing-secret" type="text" value="whsec_/);
  const webhookId = /action="\/dashboard\/webhooks\/(wh_[^/"]+)\/test"/.exec(created.body)?.[1] ?? '';
  t.ok(webhookId);
  const tested = await alice.post(`/dashboard/webhooks/${webhookId}/test`, {});
  t.equal(tested.statusCode, 303);
  t.equal(sink.calls.length, 1, 'the receiver got the test request');
  const page = await alice.get(String(tested.headers.location));
  t.match(page.body, /<caption>Call history<\/caption>/);
  t.match(page.body, /<td>200 <\/td>/);
  t.match(page.body, /sink says 200/);
  t.notMatch(page.body, /whsec_/, 'the secret is not shown again');
});

t.test('the filter builder writes the API’s filter language, and its preview says which recent items would be sent', async (t) => {
  await alice.get('/dashboard/webhooks');
  const fields = {
    url: sink.url,
    scope: 'feeds',
    feeds: feedId,
    filter_mode: 'builder',
    match: 'any',
    condition_field: ['title', 'title', 'title'],
    condition_op: ['contains', 'matches', 'contains'],
    condition_value: ['Post 1', '^Post 3$', ''],
    filters: '',
  };
  const preview = await alice.post('/dashboard/webhooks', { ...fields, action: 'preview' });
  t.equal(preview.statusCode, 200);
  t.match(preview.body, /<section class="panel" aria-label="Filter preview"><p role="status">2 of 3 recent items would be sent\.<\/p>/);
  t.match(preview.body, /not sent<\/strong> — Post 2/);
  t.match(preview.body, /id="condition-value-2" name="condition_value" type="text" value="\^Post 3\$"/, 'the rows keep what was typed');
  const refused = await alice.post('/dashboard/webhooks', {
    ...fields,
    condition_value: ['(a)\\1', '', ''],
    condition_op: ['matches', 'contains', 'contains'],
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.body, /class="field-error" id="webhook-filters-error" role="alert">Expected `filters/);
  const created = await alice.post('/dashboard/webhooks', fields);
  t.equal(created.statusCode, 200);
  const webhookId = /action="\/dashboard\/webhooks\/(wh_[^/"]+)\/test"/.exec(created.body)?.[1] ?? '';
  const rest = await app.inject({ method: 'GET', url: `/v1/webhooks/${webhookId}`, headers: { authorization: await env.bearer('alice') } });
  t.same(rest.json<{ filters: unknown }>().filters, {
    any: [
      { field: 'title', op: 'contains', value: 'Post 1' },
      { field: 'title', op: 'matches', value: '^Post 3$' },
    ],
  });
  const page = await alice.get(`/dashboard/webhooks/${webhookId}`);
  t.match(page.body, /name="match" value="any" checked/, 'the stored filter opens in the builder');
  t.match(page.body, /id="condition-value-1" name="condition_value" type="text" value="Post 1"/);
});

t.test('a long feed list comes in pages of 100 with links between them', async (t) => {
  await createUser(env.deps, { account: 'carol', email: 'carol@example.test', password });
  const carol = await signedIn('carol@example.test');
  for (let n = 0; n < 102; n += 1) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
    await env.deps.feeds.insert({
      id: `carolfeed${String(n).padStart(7, '0')}`,
      accountId: 'carol',
      title: `Feed ${n}`,
      description: '',
      icon: '',
      sourceUrl: `https://example.test/${n}`,
      fetchUrl: `https://example.test/${n}`,
      link: '',
      createdAt: at,
      updatedAt: at,
      settings: {
        customAuthor: null,
        sort: 'last_added',
        paused: false,
        minIntervalSeconds: null,
        filters: { keep: null, block: null },
        fullText: false,
        fullTextRules: null,
        fetchOptions: null,
        selectors: null,
        render: 'auto',
      },
      fetch: { errorCount: 0, unchangedStreak: 0 },
    });
  }
  const first = await carol.get('/dashboard/feeds');
  t.equal(first.body.match(/<th scope="row">/g)?.length, 100);
  t.match(first.body, /<caption>Your feeds \(1–100 of 102\)<\/caption>/);
  t.match(first.body, /<a href="\/dashboard\/feeds\?offset=100" rel="next">Next page<\/a>/);
  t.notMatch(first.body, /rel="prev"/);
  const second = await carol.get('/dashboard/feeds?offset=100');
  t.equal(second.body.match(/<th scope="row">/g)?.length, 2);
  t.match(second.body, /<a href="\/dashboard\/feeds\?offset=0" rel="prev">Previous page<\/a>/);
  t.match(second.body, /Feed 0<\/a>/, 'the oldest feed is on the last page');
});

t.test('the feed page refreshes on demand (throttled), pauses and resumes, and keeps a floor of its own', async (t) => {
  await alice.get(`/dashboard/feeds/${feedId}`);
  const tooSoon = await alice.post(`/dashboard/feeds/${feedId}/refresh`, {});
  t.equal(tooSoon.statusCode, 429, 'the feed was fetched moments ago');
  t.match(tooSoon.body, /role="alert">Feed `[^`]+` was fetched \d+ s ago; [^<]*try again in \d+ s</);
  ahead += 60_000;
  source.addItem('Fresh from the source');
  const refreshed = await alice.post(`/dashboard/feeds/${feedId}/refresh`, {});
  t.equal(refreshed.statusCode, 303);
  const page = await alice.get(String(refreshed.headers.location));
  t.match(page.body, /role="status">Refreshed: changed, 1 new, 0 changed\.</);
  t.match(page.body, /Fresh from the source/);

  t.equal((await alice.post(`/dashboard/feeds/${feedId}/pause`, { paused: 'true' })).statusCode, 303);
  const paused = await alice.get(`/dashboard/feeds/${feedId}`);
  t.match(paused.body, /<span class="state-paused">paused<\/span>/);
  t.match(paused.body, /<input type="hidden" name="paused" value="false"><button type="submit" class="secondary">Resume polling<\/button>/);
  t.equal((await env.deps.feeds.get('alice', feedId)).state === 'present', true);
  t.equal((await alice.post(`/dashboard/feeds/${feedId}/pause`, { paused: 'false' })).statusCode, 303);
  t.match((await alice.get(`/dashboard/feeds/${feedId}`)).body, /<button type="submit" class="secondary">Pause polling<\/button>/);

  const typo = await alice.post(`/dashboard/feeds/${feedId}/settings`, { customAuthor: 'Newsroom', sort: 'date', minInterval: 'hourly' });
  t.equal(typo.statusCode, 400);
  t.match(typo.body, /id="min-interval" name="minInterval" type="text" value="hourly" aria-invalid="true"/);
  t.match(typo.body, /Expected `min_interval` to be a whole number of seconds, got &quot;hourly&quot;/);
  t.equal(
    (await alice.post(`/dashboard/feeds/${feedId}/settings`, { customAuthor: 'Newsroom', sort: 'date', minInterval: '3600' })).statusCode,
    303,
  );
  t.match((await alice.get(`/dashboard/feeds/${feedId}`)).body, /id="min-interval" name="minInterval" type="text" value="3600"/);
});

t.test('keep/block filters: a dry run says what would be dropped and why, saving hides it everywhere', async (t) => {
  await alice.get(`/dashboard/feeds/${feedId}`);
  const block = JSON.stringify({ field: 'title', op: 'contains', value: 'Post 2' });
  const preview = await alice.post(`/dashboard/feeds/${feedId}/filters`, { keep: '', block, action: 'preview' });
  t.equal(preview.statusCode, 200);
  t.match(preview.body, /<section class="panel" aria-label="Filter preview"><p role="status">3 of 4 recent items would be kept\.<\/p>/);
  t.match(preview.body, /dropped<\/strong> — Post 2 <span class="item-meta">\(block: title contains “Post 2”\)<\/span>/);
  const broken = await alice.post(`/dashboard/feeds/${feedId}/filters`, {
    keep: '{"field": "colour", "op": "contains", "value": "x"}',
    block,
    action: 'save',
  });
  t.equal(broken.statusCode, 400);
  t.match(broken.body, /id="filters-keep" name="keep"[^>]*aria-invalid="true">\{&quot;field&quot;: &quot;colour&quot;/);
  t.equal((await alice.post(`/dashboard/feeds/${feedId}/filters`, { keep: '', block, action: 'save' })).statusCode, 303);
  const page = await alice.get(`/dashboard/feeds/${feedId}`);
  t.notMatch(page.body, />Post 2</, 'the blocked item is not shown');
  const rest = await app.inject({ method: 'GET', url: `/v1/feeds/${feedId}`, headers: { authorization: await env.bearer('alice') } });
  t.notOk(
    rest.json<{ items: { title: string }[] }>().items.some((item) => item.title === 'Post 2'),
    'nor in the API',
  );
});

t.test("the filter builder's operators are grouped by the fields they apply to", async (t) => {
  const body = (await alice.get('/dashboard/webhooks')).body;
  t.match(body, /<optgroup label="For text fields" data-for="title description author url category">.*?value="contains".*?<\/optgroup>/s);
  t.match(
    body,
    /<optgroup label="For date_published" data-for="date_published"><option value="older_than">older than<\/option><option value="newer_than">newer than<\/option><\/optgroup>/,
  );
});
