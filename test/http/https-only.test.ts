import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { assertError } from '../fixtures/error-shape.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
t.teardown(() => env.close());

t.test('behind a trusted proxy, a request it received over plain HTTP is refused', async (t) => {
  const app = await buildHttpApp(env.deps, { trustProxy: 1 });
  t.teardown(() => app.close());
  const authorization = await env.bearer('alice');
  const plain = await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization, 'x-forwarded-proto': 'http' } });
  const { message } = assertError(t, plain, 403, 'https_required');
  t.match(message, /HTTPS only/);
  const secure = await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization, 'x-forwarded-proto': 'https' } });
  t.equal(secure.statusCode, 200);
});

t.test('without a proxy, forwarded headers are not trusted', async (t) => {
  const app = await buildHttpApp(env.deps, { trustProxy: false });
  t.teardown(() => app.close());
  const spoofed = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
  assertError(t, spoofed, 403, 'https_required');
});
