import t from 'tap';
import WebSocket from 'ws';
import { revokeKey } from '../../src/app/api-keys.js';
import { createLocalAuthThrottle } from '../../src/adapters/local-auth-throttle/local-auth-throttle.js';
import { createAuthenticator } from '../../src/app/authenticate.js';
import { verifySecret } from '../../src/crypto/secret-hash.js';
import { buildHttpApp } from '../../src/http/app.js';
import { mountGraphql } from '../../src/graphql/mount.js';
import { assertError } from '../fixtures/error-shape.js';
import { createTestDeps } from '../fixtures/test-deps.js';
import { startGraphqlHttps } from '../graphql/transport-fixtures.js';

// 400 real scrypt checks on a shared two-core machine: more than the usual 120 s may pass. The
// assertions compare counts and a ratio, never the time taken.
t.setTimeout(600_000);

// The throttle's clock: moved by hand, so waits are asserted without sleeping.
let now = Date.parse('2026-11-24T12:00:00Z');
const env = createTestDeps({ clock: { now: () => new Date(now) } });
t.teardown(() => env.close());

/** verifySecret, counting its calls: the slow hash a guesser must not make us run. */
function countingVerify(): { verify: typeof verifySecret; readonly calls: number } {
  let calls = 0;
  return {
    verify: (secret, stored) => {
      calls += 1;
      return verifySecret(secret, stored);
    },
    get calls() {
      return calls;
    },
  };
}

/** The test deps with a fresh throttle of its own, which lets `free` failures through. */
const throttled = (free: number) => ({ ...env.deps, authThrottle: createLocalAuthThrottle({ freeFailures: free }) });
const keyOf = (authorization: string): string => authorization.slice('Bearer '.length).split(':')[0] ?? '';
const wrongSecret = (authorization: string): string => `${authorization.slice(0, -2)}xx`;
const unknownKey = (n: number): string => `Bearer fmk_${String(n).padStart(16, 'Z')}:${'s'.repeat(32)}`;

t.test('every authentication failure, REST or GraphQL, has the same 401 body', async (t) => {
  const app = await buildHttpApp({ ...env.deps, authThrottle: createLocalAuthThrottle({ freeFailures: 100 }) }, { httpsOnly: false });
  mountGraphql(app, env.deps);
  t.teardown(() => app.close());
  const alice = await env.bearer('alice');
  const revoked = await env.bearer('alice');
  await revokeKey(env.deps, keyOf(revoked));
  const failures = {
    missing: undefined,
    malformed: 'Bearer nocolon',
    'not Bearer': 'Basic abc:def',
    'unknown key': unknownKey(1),
    'wrong secret': wrongSecret(alice),
    revoked,
  };
  const rest = new Set<string>();
  const graphql = new Set<string>();
  for (const [why, authorization] of Object.entries(failures)) {
    const headers = authorization === undefined ? {} : { authorization };
    const response = await app.inject({ method: 'GET', url: '/v1/feeds', headers });
    assertError(t, response, 401, 'unauthorized');
    rest.add(response.body);
    const query = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: { query: '{ feeds { totalCount } }' },
    });
    t.equal(query.statusCode, 401, `${why}: GraphQL says 401 too`);
    graphql.add(query.body);
  }
  t.equal(rest.size, 1, 'one REST body for every failure');
  t.match([...rest][0], /Authorization: Bearer <API_KEY>:<API_SECRET>/, 'it says what to send');
  t.equal(graphql.size, 1, 'one GraphQL body for every failure');
  t.match([...graphql][0], /"code":"unauthorized"/);
});

t.test('an unknown key costs the same hashing as a wrong secret', async (t) => {
  const counter = countingVerify();
  const authenticate = createAuthenticator(
    { ...env.deps, authThrottle: createLocalAuthThrottle({ freeFailures: 1_000_000 }) },
    { verify: counter.verify },
  );
  const bob = await env.bearer('bob');
  const timed = async (authorization: string): Promise<number> => {
    const started = process.hrtime.bigint();
    await authenticate(authorization, '192.0.2.1').then(
      () => t.fail('accepted'),
      () => undefined,
    );
    return Number(process.hrtime.bigint() - started);
  };
  await timed(unknownKey(0)); // the stand-in hash is made once, on the first unknown key
  const before = counter.calls;
  const unknown: number[] = [];
  const wrong: number[] = [];
  // Interleaved, so load on the machine weighs on both alike.
  for (let i = 0; i < 200; i += 1) {
    unknown.push(await timed(unknownKey(i + 1)));
    wrong.push(await timed(wrongSecret(bob)));
  }
  t.equal(counter.calls - before, 400, 'each of the 400 failures ran the slow hash exactly once');
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
  const ratio = median(unknown) / median(wrong);
  t.ok(ratio > 1 / 1.25 && ratio < 1.25, `median unknown key / median wrong secret = ${ratio.toFixed(3)}, within 25%`);
});

t.test('after N wrong secrets the next attempt is 429 with Retry-After, and nothing is hashed', async (t) => {
  const counter = countingVerify();
  const app = await buildHttpApp(throttled(3), { httpsOnly: false, verifySecret: counter.verify });
  mountGraphql(app, env.deps);
  t.teardown(() => app.close());
  const carol = await env.bearer('carol');
  const dave = await env.bearer('dave');
  const erin = await env.bearer('erin');
  const get = (authorization: string, remoteAddress: string) =>
    app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization }, remoteAddress });
  t.equal((await get(carol, '198.51.100.2')).statusCode, 200, 'carol signs in once from her own address');

  const hashesBefore = counter.calls;
  for (let i = 0; i < 3; i += 1) assertError(t, await get(wrongSecret(carol), '203.0.113.66'), 401, 'unauthorized');
  t.equal(counter.calls - hashesBefore, 3, 'each wrong secret was hashed');
  const limited = await get(wrongSecret(carol), '203.0.113.66');
  const { message } = assertError(t, limited, 429, 'rate_limited');
  t.match(message, /retry in 1 s/);
  t.equal(limited.headers['retry-after'], '1');
  assertError(t, await get(erin, '203.0.113.66'), 429, 'rate_limited'); // the address is throttled, whatever key it names
  t.equal(counter.calls - hashesBefore, 3, 'the refused attempts ran no hash, not even one with a right secret');

  t.equal((await get(dave, '198.51.100.3')).statusCode, 200, 'another key from another address is unaffected');
  t.equal(
    (await get(carol, '198.51.100.2')).statusCode,
    200,
    'carol, whose secret this process has proven, still gets in: an attack does not lock her out',
  );
  t.equal(counter.calls - hashesBefore, 4, 'only dave, never seen before, was hashed');
  t.equal((await get(erin, '198.51.100.4')).statusCode, 200, 'the throttled address blocked erin there, not elsewhere');

  now += 1_000;
  assertError(t, await get(wrongSecret(carol), '203.0.113.66'), 401, 'unauthorized');
  const longer = await get(wrongSecret(carol), '203.0.113.66');
  assertError(t, longer, 429, 'rate_limited');
  t.equal(longer.headers['retry-after'], '2', 'each further failure doubles the wait');
  t.equal(counter.calls - hashesBefore, 6, 'two more hashes: erin elsewhere and the attempt made after the wait');
});

t.test('a client rotating made-up key ids is throttled by its address', async (t) => {
  const counter = countingVerify();
  const app = await buildHttpApp(throttled(3), { httpsOnly: false, verifySecret: counter.verify });
  t.teardown(() => app.close());
  const get = (n: number) =>
    app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization: unknownKey(100 + n) }, remoteAddress: '203.0.113.77' });
  for (let n = 0; n < 3; n += 1) assertError(t, await get(n), 401, 'unauthorized');
  const limited = await get(3);
  assertError(t, limited, 429, 'rate_limited');
  t.ok(Number(limited.headers['retry-after']) >= 1);
  t.equal(counter.calls, 3, 'the fourth key id was not hashed');
});

t.test('GraphQL shares the throttle with REST and hashes each request once', async (t) => {
  const counter = countingVerify();
  const app = await buildHttpApp(throttled(3), { httpsOnly: false, verifySecret: counter.verify });
  mountGraphql(app, env.deps);
  t.teardown(() => app.close());
  const frank = await env.bearer('frank');
  const remoteAddress = '203.0.113.88';
  const query = (authorization: string) =>
    app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization, 'content-type': 'application/json' },
      payload: { query: '{ feeds { totalCount } }' },
      remoteAddress,
    });
  for (let i = 0; i < 2; i += 1) {
    assertError(
      t,
      await app.inject({ method: 'GET', url: '/v1/feeds', headers: { authorization: wrongSecret(frank) }, remoteAddress }),
      401,
      'unauthorized',
    );
  }
  t.equal((await query(wrongSecret(frank))).statusCode, 401);
  t.equal(counter.calls, 3, 'the GraphQL request was hashed once, not once to name the caller and again to run');
  const limited = await query(wrongSecret(frank));
  t.equal(limited.statusCode, 429);
  t.equal(limited.headers['retry-after'], '1', 'Retry-After over GraphQL too');
  t.match(limited.body, /"code":"rate_limited"/);
  t.equal(counter.calls, 3, 'nothing hashed');
});

t.test('WebSocket connections share the throttle: past the limit they close with 4429', async (t) => {
  const server = await startGraphqlHttps(env.deps);
  t.teardown(() => server.close());
  const grace = await env.bearer('grace');
  const closeCode = (authorization: string) =>
    new Promise<{ code: number; reason: string }>((resolve, reject) => {
      const socket = new WebSocket(server.wsUrl, 'graphql-transport-ws', { ca: server.ca });
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: authorization } })));
      socket.on('message', (data: Buffer) => reject(new Error(`expected a close, got ${data.toString()}`)));
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      socket.on('error', reject);
    });
  for (let i = 0; i < 5; i += 1) t.equal((await closeCode(wrongSecret(grace))).code, 4401, `wrong secret ${i + 1}`);
  const limited = await closeCode(wrongSecret(grace));
  t.equal(limited.code, 4429, 'the sixth is refused before hashing');
  t.match(limited.reason, /retry in \d+ s/);
});
