import t from 'tap';
import { createUser } from '../../src/app/users.js';
import { mountDashboard } from '../../src/dashboard/mount.js';
import { buildHttpApp } from '../../src/http/app.js';
import { dashboardClient } from '../fixtures/dashboard-client.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
const app = await buildHttpApp(env.deps, { httpsOnly: false });
await mountDashboard(app, env.deps);
t.teardown(async () => {
  await app.close();
  await env.close();
});
const password = 'correct horse battery';
await createUser(env.deps, { account: 'alice', email: 'alice@example.test', password });

t.test('/ leads to the feeds page, and a page without a session to sign-in and back', async (t) => {
  const browser = dashboardClient(app);
  const root = await browser.get('/');
  t.equal(root.statusCode, 303);
  t.equal(root.headers.location, '/dashboard/feeds');
  const page = await browser.get('/dashboard/bundles?x=1');
  t.equal(page.statusCode, 303);
  t.equal(page.headers.location, `/dashboard/sign-in?next=${encodeURIComponent('/dashboard/bundles?x=1')}`);
  const form = await browser.get(String(page.headers.location));
  t.equal(form.statusCode, 200);
  t.match(form.headers['content-type'], /^text\/html/);
  t.match(form.body, /<label for="email">Email<\/label>/);
  t.match(form.body, /<label for="password">Password<\/label>/);
  t.match(form.body, /<button type="submit">Sign in<\/button>/);
  t.match(form.body, /name="next" value="\/dashboard\/bundles\?x=1"/);
  const signedIn = await browser.post('/dashboard/sign-in', { email: 'alice@example.test', password, next: '/dashboard/bundles?x=1' });
  t.equal(signedIn.statusCode, 303);
  t.equal(signedIn.headers.location, '/dashboard/bundles?x=1');
});

t.test('the session cookie is host-only, HttpOnly, Secure and SameSite=Lax', async (t) => {
  const browser = dashboardClient(app);
  const response = await browser.signIn('alice@example.test', password);
  const header = String(response.headers['set-cookie']);
  t.match(header, /^__Host-feedmill-session=[A-Za-z0-9_-]{40,};/);
  t.match(header, /; Path=\//);
  t.match(header, /; HttpOnly/);
  t.match(header, /; Secure/);
  t.match(header, /; SameSite=Lax/);
  t.notMatch(header, /Domain=/i);
  t.equal((await browser.get('/dashboard/feeds')).statusCode, 200);
});

t.test('a wrong password and an unknown email get the same answer, and the email stays in the form', async (t) => {
  const wrong = await dashboardClient(app).signIn('alice@example.test', 'not the password at all');
  const unknown = await dashboardClient(app).signIn('nobody@example.test', 'not the password at all');
  for (const response of [wrong, unknown]) {
    t.equal(response.statusCode, 401);
    t.match(response.body, /role="alert">Wrong email or password</);
    t.equal(response.cookies.length, 0, 'no session');
  }
  t.match(wrong.body, /value="alice@example\.test"/);
  t.match(unknown.body, /value="nobody@example\.test"/);
});

t.test('a sign-in from another site, or without an Origin, is refused before any password is checked', async (t) => {
  for (const origin of ['https://evil.example', null]) {
    const response = await dashboardClient(app).post(
      '/dashboard/sign-in',
      { email: 'alice@example.test', password },
      { origin, csrf: null },
    );
    t.equal(response.statusCode, 403);
    t.match(response.body, /another site/);
    t.equal(response.cookies.length, 0);
  }
});

t.test('a signed-in form without its token, or with another session’s, changes nothing', async (t) => {
  const alice = dashboardClient(app);
  await alice.signIn('alice@example.test', password);
  await alice.get('/dashboard/keys');
  const other = dashboardClient(app);
  await other.signIn('alice@example.test', password);
  await other.get('/dashboard/keys');
  t.not(other.csrf, alice.csrf, 'a token belongs to one session');
  for (const csrf of [null, other.csrf]) {
    const response = await alice.post('/dashboard/keys', { scopes: 'read' }, { csrf });
    t.equal(response.statusCode, 403);
    t.match(response.body, /out of date/);
  }
  t.equal((await env.deps.keys.list()).filter((key) => key.accountId === 'alice').length, 0, 'no key was made');
});

t.test('next may only name a dashboard page, never another site', async (t) => {
  for (const next of ['https://evil.example/', '//evil.example/', '/v1/feeds', 'javascript:alert(1)']) {
    const response = await dashboardClient(app).post('/dashboard/sign-in', { email: 'alice@example.test', password, next }, { csrf: null });
    t.equal(response.headers.location, '/dashboard/feeds', next);
  }
});

t.test('sign out ends this session; sign out everywhere ends every session of the person', async (t) => {
  const first = dashboardClient(app);
  const second = dashboardClient(app);
  await first.signIn('alice@example.test', password);
  await second.signIn('alice@example.test', password);
  await first.get('/dashboard/feeds');
  const out = await first.post('/dashboard/sign-out', {});
  t.equal(out.statusCode, 303);
  t.equal(out.headers.location, '/dashboard/sign-in?signed_out');
  t.equal(first.cookie, undefined, 'the cookie is cleared');
  t.equal((await second.get('/dashboard/feeds')).statusCode, 200, 'the other session lives on');

  const third = dashboardClient(app);
  await third.signIn('alice@example.test', password);
  await second.get('/dashboard/feeds');
  t.equal((await second.post('/dashboard/sign-out-everywhere', {})).statusCode, 303);
  const after = await third.get('/dashboard/feeds');
  t.equal(after.statusCode, 303, 'another browser’s session ended too');
  t.match(String(after.headers.location), /^\/dashboard\/sign-in/);
});

t.test('the REST API still refuses form bodies: the form parser lives in the dashboard only', async (t) => {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/feeds',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: await env.bearer('alice') },
    payload: 'url=x',
  });
  t.equal(response.statusCode, 415);
});

t.test('pages are never cached and carry the strict policy; assets are cached for a year under hashed names', async (t) => {
  const browser = dashboardClient(app);
  await browser.signIn('alice@example.test', password);
  const page = await browser.get('/dashboard/feeds');
  t.equal(page.headers['cache-control'], 'no-store');
  t.match(String(page.headers['content-security-policy']), /script-src 'self'; style-src 'self'/);
  t.notMatch(String(page.headers['content-security-policy']), /unsafe-inline/);
  t.notMatch(page.body, /<script>|<style>| style="| on[a-z]+="/, 'no inline script, style or handler for the policy to block');
  const paths = [...page.body.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
  t.equal(paths.length, 2);
  for (const path of paths) {
    t.match(path, /^\/dashboard\/assets\/dashboard\.[0-9a-f]{12}\.(css|js)$/);
    const asset = await app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'gzip' } });
    t.equal(asset.statusCode, 200);
    t.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.equal(asset.headers['content-encoding'], 'gzip');
    t.ok(asset.rawPayload.length < 100 * 1024, `${path} is ${asset.rawPayload.length} bytes compressed`);
  }
  t.equal((await app.inject({ method: 'GET', url: '/dashboard/assets/dashboard.000000000000.css' })).statusCode, 404);
});
