import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { apiClient } from '../fixtures/api-client.js';
import { assertError } from '../fixtures/error-shape.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
const source = await startRssSource(2);
t.teardown(async () => {
  await app.close();
  await source.close();
  await env.close();
});
const alice = apiClient(app, await env.bearer('alice'));
const bob = apiClient(app, await env.bearer('bob'));
const total = async () => (await alice.get('/v1/feeds')).json<{ total: number }>().total;

t.test('a retried create with the same Idempotency-Key replays the first response and creates one feed', async (t) => {
  const first = await alice.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'create-1' });
  t.equal(first.statusCode, 200);
  const again = await alice.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'create-1' });
  t.equal(again.statusCode, 200);
  t.equal(again.headers['idempotent-replayed'], 'true');
  t.equal(again.body, first.body, 'the same body, byte for byte');
  t.equal(await total(), 1, 'one feed exists');
});

t.test('the same key with a different body is a conflict', async (t) => {
  const other = await alice.post('/v1/feeds', { url: `${source.url}?other` }, { 'idempotency-key': 'create-1' });
  const { message } = assertError(t, other, 409, 'idempotency_conflict');
  t.match(message, /different request/);
  t.equal(await total(), 1);
});

t.test('keys belong to an account: another account may use the same key', async (t) => {
  const response = await bob.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'create-1' });
  t.equal(response.statusCode, 200);
  t.notOk(response.headers['idempotent-replayed']);
});

t.test('a request that fails validation does not use up its key', async (t) => {
  assertError(t, await alice.post('/v1/feeds', { link: source.url }, { 'idempotency-key': 'create-2' }), 400, 'validation_failed');
  const fixed = await alice.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'create-2' });
  t.equal(fixed.statusCode, 200);
  t.notOk(fixed.headers['idempotent-replayed']);
});

t.test('a failed create against its source is replayed as the same failure', async (t) => {
  const failed = await alice.post('/v1/feeds', { url: 'http://127.0.0.1:1/feed.xml' }, { 'idempotency-key': 'create-3' });
  assertError(t, failed, 402, 'source_unreachable');
  const again = await alice.post('/v1/feeds', { url: 'http://127.0.0.1:1/feed.xml' }, { 'idempotency-key': 'create-3' });
  t.equal(again.headers['idempotent-replayed'], 'true');
  t.equal(again.body, failed.body);
});

t.test('a delete retried with its key replays the deletion instead of saying "already deleted"', async (t) => {
  const id = (await alice.post('/v1/feeds', { url: source.url })).json<{ id: string }>().id;
  const remove = () =>
    app.inject({
      method: 'DELETE',
      url: `/v1/feeds/${id}`,
      headers: { authorization: alice.authorization, 'idempotency-key': 'delete-1' },
    });
  t.same((await remove()).json(), { id, deleted: true });
  const again = await remove();
  t.equal(again.statusCode, 200);
  t.same(again.json(), { id, deleted: true });
});

t.test('concurrent requests with one key: one runs, the other is told it is in progress', async (t) => {
  const [a, b] = await Promise.all([
    alice.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'race' }),
    alice.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'race' }),
  ]);
  const statuses = [a.statusCode, b.statusCode].sort();
  t.same(statuses, [200, 409]);
  const conflict = a.statusCode === 409 ? a : b;
  t.match(conflict.json<{ message: string }>().message, /in progress/);
});

t.test('a malformed key is a validation error', async (t) => {
  assertError(t, await alice.post('/v1/feeds', { url: source.url }, { 'idempotency-key': 'x'.repeat(300) }), 400, 'validation_failed');
});
