import t from 'tap';
import { buildHttpApp } from '../../src/http/app.js';
import { assertError } from '../fixtures/error-shape.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
t.teardown(() => env.close());

// `app.inject` connects from 127.0.0.1: the proxy in front, as the API sees it.
const hosted = (app: Awaited<ReturnType<typeof buildHttpApp>>, forwardedFor: string) =>
  app.inject({
    method: 'GET',
    url: '/feeds/nosuchfeed000000.xml',
    headers: { 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': 'https' },
  });

t.test('with one trusted hop, a client rotating the left-most X-Forwarded-For entries is still limited', async (t) => {
  const app = await buildHttpApp(env.deps, { trustProxy: 1, rateLimit: { max: 3, windowMs: 60_000 } });
  t.teardown(() => app.close());
  for (let i = 0; i < 3; i += 1) t.equal((await hosted(app, `1.2.3.${i}, 198.51.100.7`)).statusCode, 404, `request ${i + 1} is served`);
  const limited = await hosted(app, '1.2.3.99, 198.51.100.7');
  assertError(t, limited, 429, 'rate_limited');
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After says when to come back');
  t.equal((await hosted(app, '1.2.3.4, 198.51.100.8')).statusCode, 404, 'another client behind the same proxy has its own budget');
});

t.test('a list of proxy CIDRs skips every trusted proxy and stops at the first untrusted address', async (t) => {
  const app = await buildHttpApp(env.deps, { trustProxy: ['127.0.0.1/32', '10.0.0.0/8'], rateLimit: { max: 2, windowMs: 60_000 } });
  t.teardown(() => app.close());
  t.equal((await hosted(app, '1.2.3.1, 203.0.113.9, 10.1.2.3')).statusCode, 404);
  t.equal((await hosted(app, '1.2.3.2, 203.0.113.9, 10.9.9.9')).statusCode, 404);
  assertError(t, await hosted(app, '1.2.3.3, 203.0.113.9, 10.0.0.1'), 429, 'rate_limited');
  t.equal((await hosted(app, '203.0.113.10, 10.1.2.3')).statusCode, 404, 'the next address is another client');
});

t.test('a peer outside the list is not believed: its X-Forwarded-* headers are ignored', async (t) => {
  const app = await buildHttpApp(env.deps, { trustProxy: ['10.0.0.0/8'], rateLimit: { max: 2, windowMs: 60_000 } });
  t.teardown(() => app.close());
  assertError(t, await hosted(app, '203.0.113.1'), 403, 'https_required');
  const plain = await buildHttpApp(env.deps, { trustProxy: ['10.0.0.0/8'], httpsOnly: false, rateLimit: { max: 2, windowMs: 60_000 } });
  t.teardown(() => plain.close());
  t.equal((await hosted(plain, '203.0.113.1')).statusCode, 404);
  t.equal((await hosted(plain, '203.0.113.2')).statusCode, 404);
  assertError(t, await hosted(plain, '203.0.113.3'), 429, 'rate_limited');
});
