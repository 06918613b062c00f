import t from 'tap';
import { mountDashboard } from '../../src/dashboard/mount.js';
import { buildHttpApp } from '../../src/http/app.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
t.teardown(() => env.close());

t.test('an HTML response gets a strict Content-Security-Policy: own scripts and styles only, no framing', async (t) => {
  const app = await buildHttpApp(env.deps, { trustProxy: 1 });
  await mountDashboard(app, env.deps);
  t.teardown(() => app.close());
  // The dashboard's sign-in page, and any other route answering HTML.
  app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><p>hi</p>'));
  for (const url of ['/page', '/dashboard/sign-in']) {
    const page = await app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
    t.equal(page.headers['referrer-policy'], 'same-origin', `${url}: its forms send our origin, other sites learn nothing`);
  }
  const page = await app.inject({ method: 'GET', url: '/page', headers: { 'x-forwarded-proto': 'https' } });
  const policy = String(page.headers['content-security-policy']);
  t.match(policy, /default-src 'none'/);
  t.match(policy, /script-src 'self'/);
  t.match(policy, /frame-ancestors 'none'/);
  t.notMatch(policy, /unsafe-inline|unsafe-eval/, 'no inline code');
  t.equal(page.headers['x-content-type-options'], 'nosniff');
  t.equal(page.headers['strict-transport-security'], 'max-age=31536000', 'HSTS for a year by default');
  const json = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
  t.equal(
    json.headers['content-security-policy'],
    "default-src 'none'; frame-ancestors 'none'; sandbox",
    'data responses may load nothing',
  );
});

t.test('HSTS is never sent over plain HTTP (RFC 6797 §7.2); the other headers are', async (t) => {
  const app = await buildHttpApp(env.deps, { httpsOnly: false, hstsMaxAge: 600 });
  t.teardown(() => app.close());
  const plain = await app.inject({ method: 'GET', url: '/healthz' });
  t.equal(plain.headers['strict-transport-security'], undefined);
  t.equal(plain.headers['x-content-type-options'], 'nosniff');
  t.equal(plain.headers['referrer-policy'], 'no-referrer');
  const refused = await buildHttpApp(env.deps, { hstsMaxAge: 600 });
  t.teardown(() => refused.close());
  const error = await refused.inject({ method: 'GET', url: '/healthz' });
  t.equal(error.statusCode, 403, 'https_required');
  t.equal(error.headers['x-content-type-options'], 'nosniff', 'errors carry it too');
});
