import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Agent, request } from 'undici';
import { loadTls } from '../../src/main/tls.js';
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

t.test('a trusted proxy that does not say how its client connected is not taken for HTTPS', async (t) => {
  // Over a real TLS socket: the connection from the proxy is encrypted, which says nothing of the client's.
  const dataDir = mkdtempSync(join(tmpdir(), 'feedmill-https-only-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const tls = await loadTls({ dataDir, tlsCert: undefined, tlsKey: undefined });
  const app = await buildHttpApp(env.deps, { https: { key: tls.key, cert: tls.cert }, trustProxy: ['127.0.0.1'] });
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const agent = new Agent({ connect: { ca: tls.cert, servername: 'localhost' } });
  t.teardown(() => agent.close());
  const call = async (headers: Record<string, string>) => {
    const response = await request(`https://127.0.0.1:${port}/healthz`, { headers, dispatcher: agent });
    const text = await response.body.text();
    return { statusCode: response.statusCode, json: () => JSON.parse(text) as unknown };
  };
  const { message } = assertError(t, await call({}), 403, 'https_required');
  t.match(message, /X-Forwarded-Proto/, 'the message names the missing header');
  assertError(t, await call({ 'x-forwarded-proto': 'http' }), 403, 'https_required');
  t.equal((await call({ 'x-forwarded-proto': 'https' })).statusCode, 200, 'the proxy says HTTPS: accepted');
});
