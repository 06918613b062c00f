import t from 'tap';
import { createLocalAuthThrottle } from '../../src/adapters/local-auth-throttle/local-auth-throttle.js';
import { createAuthenticator, touchEveryMs } from '../../src/app/authenticate.js';
import { hashSecret, verifySecret } from '../../src/crypto/secret-hash.js';
import type { ApiKey } from '../../src/domain/api-key.js';

const key: ApiKey = {
  id: 'fmk_keyauthtest00001',
  accountId: 'alice',
  scopes: ['read'],
  secretHash: await hashSecret('right-secret'),
  createdAt: '2026-11-24T00:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
};

/** An authenticator whose scrypt checks are counted. */
function counted() {
  const checks = { count: 0 };
  const authenticate = createAuthenticator(
    {
      keys: {
        get: async (id: string) => (id === key.id ? key : undefined),
        insert: async () => undefined,
        list: async () => [key],
        revoke: async () => false,
        touch: async () => undefined,
      },
      clock: { now: () => new Date() },
      authThrottle: createLocalAuthThrottle(),
    },
    {
      verify: (secret, stored) => {
        checks.count += 1;
        return verifySecret(secret, stored);
      },
    },
  );
  return { authenticate, checks };
}

t.test('a burst of first requests with one key pays for one scrypt check, not one each', async (t) => {
  const { authenticate, checks } = counted();
  const principals = await Promise.all(Array.from({ length: 50 }, () => authenticate(`Bearer ${key.id}:right-secret`)));
  t.equal(checks.count, 1);
  t.ok(
    principals.every((principal) => principal.keyId === key.id && principal.accountId === 'alice'),
    'every request is authenticated',
  );
  await authenticate(`Bearer ${key.id}:right-secret`);
  t.equal(checks.count, 1, 'later requests use the remembered digest');
});

t.test('a burst with a wrong secret is refused every time, and shares one check', async (t) => {
  const { authenticate, checks } = counted();
  const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => authenticate(`Bearer ${key.id}:wrong-secret`)));
  t.ok(
    outcomes.every((outcome) => outcome.status === 'rejected'),
    'no wrong secret gets through',
  );
  t.equal(checks.count, 1, 'the concurrent attempts shared one check');
  await t.rejects(authenticate(`Bearer ${key.id}:wrong-secret`), { code: 'unauthorized' }, 'and a later one is checked again, and refused');
  t.equal(checks.count, 2);
  t.equal((await authenticate(`Bearer ${key.id}:right-secret`)).keyId, key.id, 'the right secret still works afterwards');
});

t.test("a key's last use is written at most once per 5 minutes, and a failed write never fails the request", async (t) => {
  let now = Date.parse('2026-11-25T10:00:00.000Z');
  const touches: string[] = [];
  let failing = false;
  const authenticate = createAuthenticator({
    keys: {
      get: async (id: string) => (id === key.id ? key : undefined),
      insert: async () => undefined,
      list: async () => [key],
      revoke: async () => false,
      touch: async (_id: string, at: string) => {
        if (failing) throw new Error('store down');
        touches.push(at);
      },
    },
    clock: { now: () => new Date(now) },
    authThrottle: createLocalAuthThrottle(),
  });
  for (let i = 0; i < 10; i += 1) await authenticate(`Bearer ${key.id}:right-secret`);
  t.same(touches, ['2026-11-25T10:00:00.000Z'], 'ten requests, one write');
  now += touchEveryMs - 1;
  await authenticate(`Bearer ${key.id}:right-secret`);
  t.equal(touches.length, 1, 'not before 5 minutes');
  now += 1;
  failing = true;
  t.equal((await authenticate(`Bearer ${key.id}:right-secret`)).keyId, key.id, 'a failing write does not fail the request');
  failing = false;
  await authenticate(`Bearer ${key.id}:right-secret`);
  t.same(touches, ['2026-11-25T10:00:00.000Z', '2026-11-25T10:05:00.000Z'], 'the failed write is tried again on the next request');
  await t.rejects(authenticate(`Bearer ${key.id}:wrong-secret`), { code: 'unauthorized' });
  t.equal(touches.length, 2, 'a failed authentication is not a use');
});
