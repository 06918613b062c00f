import t from 'tap';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import { buildHttpApp } from '../../src/http/app.js';
import { startFixtureServer } from '../fixtures/http-fixture.js';
import { createTestDeps } from '../fixtures/test-deps.js';

// A source that serves a feed until told to fail, then answers 500 until told to recover.
let failing = false;
let served = 1;
const source = await startFixtureServer((_request, response) => {
  if (failing) return void response.writeHead(500, { 'content-type': 'text/plain' }).end('down');
  const items = Array.from({ length: served }, (_, n) => `<item><title>Post ${n + 1}</title><guid>urn:post:${n + 1}</guid></item>`).join(
    '',
  );
  response
    .writeHead(200, { 'content-type': 'application/rss+xml' })
    .end(`<rss version="2.0"><channel><title>Health</title>${items}</channel></rss>`);
});
const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});

interface Status {
  state: string;
  last_fetched_at: string | null;
  last_success_at: string | null;
  next_fetch_at: string | null;
  last_outcome: string | null;
  consecutive_errors: number;
  last_error: { code: string; message: string } | null;
}
const alice = await env.bearer('alice');
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
  app.inject({
    method,
    url,
    headers: { authorization: alice, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
const created = await call('POST', '/v1/feeds', { url: `${source.url}/feed.xml` });
const feedId = created.json<{ id: string }>().id;
const status = async (): Promise<Status> => (await call('GET', `/v1/feeds/${feedId}`)).json<{ status: Status }>().status;

t.test('a new feed is active: fetched once, successfully, with its next fetch planned', async (t) => {
  t.equal(created.statusCode, 200);
  const shown = created.json<{ status: Status }>().status;
  t.match(shown, { state: 'active', last_outcome: 'changed', consecutive_errors: 0, last_error: null });
  t.ok(shown.last_fetched_at, 'fetched');
  t.equal(shown.last_success_at, shown.last_fetched_at);
  t.ok(Date.parse(shown.next_fetch_at ?? '') > Date.parse(shown.last_fetched_at ?? ''), 'the next fetch is after the last');
  t.same(await status(), shown, 'GET shows the same status');
});

t.test('a refresh that finds nothing new says unchanged; one with a new item says changed', async (t) => {
  await refreshFeed(env.deps, feedId);
  t.equal((await status()).last_outcome, 'unchanged');
  served = 2;
  await refreshFeed(env.deps, feedId);
  t.equal((await status()).last_outcome, 'changed');
});

t.test('a source that starts answering 500 makes the feed failing, with errors counted and the last one shown', async (t) => {
  const before = await status();
  failing = true;
  await refreshFeed(env.deps, feedId);
  const first = await status();
  t.match(first, { state: 'failing', consecutive_errors: 1, last_outcome: 'upstream_status', last_error: { code: 'upstream_status' } });
  t.match(first.last_error?.message, /500/, 'the message says what the source answered');
  t.equal(first.last_success_at, before.last_success_at, 'the last success stays when it was');
  t.not(first.last_fetched_at, before.last_fetched_at);
  await refreshFeed(env.deps, feedId);
  t.equal((await status()).consecutive_errors, 2, 'the count grows with each failure');
  const listed = (await call('GET', '/v1/feeds'))
    .json<{ data: { id: string; status: Status }[] }>()
    .data.find((feed) => feed.id === feedId);
  t.match(listed?.status, { state: 'failing', consecutive_errors: 2 }, 'list entries carry the status too');
  const patched = await call('PATCH', `/v1/feeds/${feedId}`, { title: 'Renamed' });
  t.match(patched.json<{ status: Status }>().status, { state: 'failing', consecutive_errors: 2 }, 'so does the update response');
});

t.test('the source answering again makes the feed active, its errors cleared', async (t) => {
  failing = false;
  await refreshFeed(env.deps, feedId);
  const recovered = await status();
  t.match(recovered, { state: 'active', consecutive_errors: 0, last_error: null });
  t.equal(recovered.last_success_at, recovered.last_fetched_at);
});

t.test('the OpenAPI document names the status schema and describes every field', async (t) => {
  const document = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
    components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
  }>();
  const schema = document.components.schemas.FeedStatus;
  t.ok(schema, 'a named component');
  for (const [field, property] of Object.entries(schema?.properties ?? {})) t.ok(property.description, `${field} is described`);
});
