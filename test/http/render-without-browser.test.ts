import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A service with no browser (the test deps have no renderer): a page whose list a script builds
// cannot be read, and each answer says why and what to do.
const scripted =
  '<!doctype html><html><head><title>Later</title></head><body><ul id="l"></ul><script>/* builds #l */</script></body></html>';
const site = await startFixtureServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' }).end(scripted);
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await site.close();
  await env.close();
});
const alice = apiClient(app, await env.bearer('alice'));

t.test('render: auto without a browser keeps the 402 and says how to turn rendering on', async (t) => {
  const response = await alice.post('/v1/feeds', { url: `${site.url}/news` });
  t.equal(response.statusCode, 402, response.body);
  t.match(response.json(), { errors: [{ code: 'no_items_found' }], message: /rendering, which is off on this service/ });
});

t.test('render: always without a browser is 503 render_unavailable, and nothing is created', async (t) => {
  const response = await alice.post('/v1/feeds', { url: `${site.url}/news`, render: 'always' });
  t.equal(response.statusCode, 503, response.body);
  t.match(response.json(), { errors: [{ code: 'render_unavailable' }], message: /FEEDMILL_CHROMIUM_PATH/ });
  const list = await alice.get('/v1/feeds');
  t.match(list.json(), { total: 0 });
});

t.test('render is a setting with `auto` as its default, and a bad value is refused naming it', async (t) => {
  const feed = await alice.post('/v1/feeds', { url: `${site.url}/news`, render: 'never' });
  t.equal(feed.statusCode, 402, 'never reads the page as served');
  const refused = await alice.post('/v1/feeds', { url: `${site.url}/news`, render: 'often' });
  t.equal(refused.statusCode, 400);
  t.match(refused.body, /render/);
});
