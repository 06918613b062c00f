import { createHash } from 'node:crypto';
import t from 'tap';
import { resumeSession, signIn, signOut, signOutEverywhere } from '../../src/app/sessions.js';
import { createUser, deleteUser } from '../../src/app/users.js';
import { userDeps, type UserDeps } from './user-deps.js';

const password = 'correct horse battery';

async function withAlice(deps: UserDeps): Promise<void> {
  await createUser(deps, { account: 'acme', email: 'alice@example.org', password });
  deps.advance(1_000);
}

t.test('signing in gives a random token whose digest, not the token, is the stored session', async (t) => {
  const deps = userDeps(t);
  await withAlice(deps);
  const { token, session } = await signIn(deps, { email: ' ALICE@example.org', password, client: '192.0.2.1' });
  t.match(token, /^[A-Za-z0-9_-]{43}$/, '32 bytes, base64url');
  t.equal(session.id, createHash('sha256').update(token).digest('base64url'));
  t.same(await deps.sessions.get(session.id), session);
  t.equal(await deps.sessions.get(token), undefined, 'the token itself is not a key of the store');
  t.match(session, {
    email: 'alice@example.org',
    accountId: 'acme',
    createdAt: '2026-11-25T10:00:01.000Z',
    lastSeenAt: '2026-11-25T10:00:01.000Z',
  });
  const second = await signIn(deps, { email: 'alice@example.org', password });
  t.not(second.token, token, 'every sign-in has its own token');
});

t.test('a wrong password and an unknown email get the same error', async (t) => {
  const deps = userDeps(t);
  await withAlice(deps);
  const wrong = await signIn(deps, { email: 'alice@example.org', password: 'not the password' }).catch((error: unknown) => error);
  const unknown = await signIn(deps, { email: 'bob@example.org', password }).catch((error: unknown) => error);
  const malformed = await signIn(deps, { email: 'not an email', password }).catch((error: unknown) => error);
  for (const error of [wrong, unknown, malformed]) t.match(error, { code: 'sign_in_failed', message: 'Wrong email or password' });
});

t.test('failures for an email from one address throttle that address, never the person elsewhere', async (t) => {
  const deps = userDeps(t, { freeFailures: 2 });
  await withAlice(deps);
  const fail = (client: string) => signIn(deps, { email: 'alice@example.org', password: 'not the password', client });
  await t.rejects(fail('192.0.2.1'), { code: 'sign_in_failed' });
  await t.rejects(fail('192.0.2.1'), { code: 'sign_in_failed' });
  await t.rejects(fail('192.0.2.1'), { code: 'rate_limited', details: { retryAfter: 1 } }, 'the guessing address waits');
  // The attacker keeps at it, each time its wait is over (each check costs a real scrypt, so few rounds).
  for (let round = 0; round < 3; round += 1) {
    deps.advance(900_000);
    await t.rejects(fail('192.0.2.1'), { code: 'sign_in_failed' });
  }
  await t.rejects(
    signIn(deps, { email: 'alice@example.org', password, client: '192.0.2.1' }),
    { code: 'rate_limited' },
    'from the guessing address, even the right password waits',
  );
  t.ok(await signIn(deps, { email: 'alice@example.org', password, client: '203.0.113.9' }), 'from her own address Alice signs in');
});

t.test('the per-email ceiling engages only when many addresses have failed for it', async (t) => {
  const deps = userDeps(t, { freeFailures: 2, freeSources: 4 });
  await withAlice(deps);
  const fail = (client: string) => signIn(deps, { email: 'alice@example.org', password: 'not the password', client });
  for (const client of ['192.0.2.1', '192.0.2.1', '192.0.2.2', '192.0.2.3']) await t.rejects(fail(client), { code: 'sign_in_failed' });
  await t.rejects(fail('192.0.2.4'), { code: 'sign_in_failed' }, 'three addresses, four failures: a fourth address is still checked');
  await t.rejects(
    signIn(deps, { email: 'alice@example.org', password, client: '203.0.113.9' }),
    { code: 'rate_limited', details: { retryAfter: 1 } },
    'four distinct addresses: the email waits, from anywhere, even with the right password',
  );
  deps.advance(1_000);
  t.ok(await signIn(deps, { email: 'alice@example.org', password, client: '203.0.113.9' }), 'after the wait the right password works');
  await t.rejects(fail('192.0.2.5'), { code: 'sign_in_failed' }, 'and the email starts afresh');

  const other = userDeps(t, { freeFailures: 2 });
  await withAlice(other);
  for (const email of ['a@x.test', 'b@x.test'])
    await t.rejects(signIn(other, { email, password, client: '198.51.100.7' }), { code: 'sign_in_failed' });
  await t.rejects(
    signIn(other, { email: 'alice@example.org', password, client: '198.51.100.7' }),
    { code: 'rate_limited' },
    'an address guessing many emails is throttled',
  );
  t.ok(await signIn(other, { email: 'alice@example.org', password, client: '198.51.100.8' }), 'another address is not');
});

t.test('a session resumes as the account with both scopes, and is touched at most once a minute', async (t) => {
  const deps = userDeps(t);
  await withAlice(deps);
  const { token, session } = await signIn(deps, { email: 'alice@example.org', password });
  const resumed = await resumeSession(deps, token);
  t.same(resumed?.principal, { accountId: 'acme', keyId: 'user:alice@example.org', scopes: ['read', 'write'] });
  deps.advance(59_000);
  t.equal((await resumeSession(deps, token))?.session.lastSeenAt, session.lastSeenAt, 'not moved within a minute');
  t.equal((await deps.sessions.get(session.id))?.lastSeenAt, session.lastSeenAt);
  deps.advance(2_000);
  t.equal((await resumeSession(deps, token))?.session.lastSeenAt, '2026-11-25T10:01:02.000Z', 'moved after a minute');
  t.equal((await deps.sessions.get(session.id))?.lastSeenAt, '2026-11-25T10:01:02.000Z', 'and stored');
  t.equal(await resumeSession(deps, 'not-a-token'), null);
  t.equal(await resumeSession(deps, ''), null);
});

t.test('an idle session ends after the idle timeout; a busy one after the maximum age', async (t) => {
  const deps = userDeps(t, { sessionIdleSeconds: 600, sessionMaxAgeSeconds: 3_600 });
  await withAlice(deps);
  const idle = await signIn(deps, { email: 'alice@example.org', password });
  const busy = await signIn(deps, { email: 'alice@example.org', password });
  for (let minute = 0; minute < 59; minute += 5) {
    deps.advance(5 * 60_000);
    t.ok(await resumeSession(deps, busy.token), `busy session alive at ${minute + 5} min`);
  }
  t.equal(await resumeSession(deps, idle.token), null, 'the idle one ended');
  t.equal(await deps.sessions.get(idle.session.id), undefined, 'and is deleted');
  deps.advance(5 * 60_000);
  t.equal(await resumeSession(deps, busy.token), null, 'the busy one ends at the maximum age');
});

t.test('sign out ends one session; sign out everywhere ends all of them, but not later ones', async (t) => {
  const deps = userDeps(t);
  await withAlice(deps);
  const first = await signIn(deps, { email: 'alice@example.org', password });
  const second = await signIn(deps, { email: 'alice@example.org', password });
  const third = await signIn(deps, { email: 'alice@example.org', password });
  await signOut(deps, first.token);
  t.equal(await resumeSession(deps, first.token), null);
  t.ok(await resumeSession(deps, second.token), 'the others go on');
  deps.advance(1_000);
  await signOutEverywhere(deps, 'Alice@example.org');
  t.equal(await resumeSession(deps, second.token), null);
  t.equal(await resumeSession(deps, third.token), null);
  deps.advance(1_000);
  const later = await signIn(deps, { email: 'alice@example.org', password });
  t.ok(await resumeSession(deps, later.token), 'a sign-in afterwards works');
  await t.rejects(signOutEverywhere(deps, 'nobody@example.org'), { code: 'user_not_found' });
});

t.test("a deleted user's session does not carry over to a new user of the same email", async (t) => {
  const deps = userDeps(t);
  await withAlice(deps);
  const { token, session } = await signIn(deps, { email: 'alice@example.org', password });
  // What the Cassandra store does: the user goes, their sessions stay until their TTL.
  await deleteUser(deps, 'alice@example.org');
  await deps.sessions.insert(session, '2026-12-31T00:00:00.000Z');
  t.equal(await resumeSession(deps, token), null, 'no user, no session');
  deps.advance(1_000);
  await createUser(deps, { account: 'someone-else', email: 'alice@example.org', password });
  t.equal(await resumeSession(deps, token), null, 'the new user does not inherit it');
});
