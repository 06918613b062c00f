import t from 'tap';
import { signIn, resumeSession } from '../../src/app/sessions.js';
import { createUser, deleteUser, listUsers, resetPassword } from '../../src/app/users.js';
import { verifyPassword } from '../../src/crypto/secret-hash.js';
import { userDeps } from './user-deps.js';

const password = 'correct horse battery';

t.test('a new user is stored with a lower-cased email and a password hash at the password cost', async (t) => {
  const deps = userDeps(t);
  const created = await createUser(deps, { account: 'acme', email: '  Alice@Example.ORG ', password });
  t.same(created, { email: 'alice@example.org', accountId: 'acme', createdAt: '2026-11-25T10:00:00.000Z', sessionsValidAfter: null });
  t.notOk('passwordHash' in created, 'the view carries no hash');
  const stored = await deps.users.get('alice@example.org');
  t.match(stored?.passwordHash, /^scrypt\$131072\$8\$1\$/, 'OWASP: N=2^17, r=8, p=1');
  t.ok(await verifyPassword(password, stored?.passwordHash ?? ''), 'the hash verifies the password');
  t.notOk(await verifyPassword('correct horse batterz', stored?.passwordHash ?? ''));
});

t.test('an email is taken once', async (t) => {
  const deps = userDeps(t);
  await createUser(deps, { account: 'acme', email: 'alice@example.org', password });
  await t.rejects(createUser(deps, { account: 'other', email: 'ALICE@example.org', password }), {
    code: 'user_exists',
    message: /alice@example\.org/,
  });
  t.equal((await deps.users.get('alice@example.org'))?.accountId, 'acme');
});

t.test('bad input says what was expected and what arrived, and never echoes the password', async (t) => {
  const deps = userDeps(t);
  await t.rejects(createUser(deps, { account: 'bad account', email: 'a@b.c', password }), {
    code: 'validation_failed',
    message: /account name.*got "bad account"/,
  });
  for (const email of [
    'no-at-sign',
    'two@@example.org',
    'a@b@c',
    'with space@example.org',
    '@example.org',
    'alice@',
    `${'a'.repeat(250)}@b.cd`,
  ]) {
    await t.rejects(
      createUser(deps, { account: 'acme', email, password }),
      { code: 'validation_failed', message: /Expected `email` to be an email address/ },
      email,
    );
  }
  const short = 'elevenchars';
  await t.rejects(createUser(deps, { account: 'acme', email: 'a@b.c', password: short }), {
    code: 'validation_failed',
    message: 'Expected `password` to be a password of 12 to 1024 characters, got 11 characters',
  });
  const error = (await createUser(deps, { account: 'acme', email: 'a@b.c', password: short }).catch((caught: unknown) => caught)) as Error;
  t.notMatch(error.message, short, 'the password is not in the message');
  await t.rejects(createUser(deps, { account: 'acme', email: 'a@b.c', password: 'x'.repeat(1025) }), { code: 'validation_failed' });
  t.same(await listUsers(deps), [], 'nothing was stored');
});

t.test('keys and users accept the same account names', async (t) => {
  const { createKey } = await import('../../src/app/api-keys.js');
  const deps = userDeps(t);
  for (const account of ['-leading-dash', 'a'.repeat(65), 'dots.and_under-scores']) {
    const key = await createKey(deps, account, ['read']).then(
      () => 'ok',
      (error: { code: string }) => error.code,
    );
    const user = await createUser(deps, { account, email: `${account.length}@x.test`, password }).then(
      () => 'ok',
      (error: { code: string }) => error.code,
    );
    t.equal(user, key, account);
  }
});

t.test('users are listed oldest first without hashes', async (t) => {
  const deps = userDeps(t);
  await createUser(deps, { account: 'acme', email: 'b@example.org', password });
  deps.advance(1_000);
  await createUser(deps, { account: 'acme', email: 'a@example.org', password });
  const users = await listUsers(deps);
  t.same(
    users.map((user) => user.email),
    ['b@example.org', 'a@example.org'],
  );
  t.ok(users.every((user) => !('passwordHash' in user)));
});

t.test('a password reset changes the password and ends the sessions', async (t) => {
  const deps = userDeps(t);
  await createUser(deps, { account: 'acme', email: 'alice@example.org', password });
  deps.advance(1_000);
  const { token } = await signIn(deps, { email: 'alice@example.org', password });
  deps.advance(1_000);
  await resetPassword(deps, 'Alice@example.org', 'a brand new passphrase');
  t.equal(await resumeSession(deps, token), null, 'the old session is over');
  deps.advance(1_000);
  await t.rejects(signIn(deps, { email: 'alice@example.org', password }), { code: 'sign_in_failed' }, 'the old password no longer works');
  t.ok(await signIn(deps, { email: 'alice@example.org', password: 'a brand new passphrase' }), 'the new one does');
  await t.rejects(resetPassword(deps, 'alice@example.org', 'short'), { code: 'validation_failed' });
  await t.rejects(resetPassword(deps, 'nobody@example.org', 'a brand new passphrase'), {
    code: 'user_not_found',
    message: /nobody@example\.org/,
  });
});

t.test('a deleted user is gone, their sessions end, and deleting again is user_not_found', async (t) => {
  const deps = userDeps(t);
  await createUser(deps, { account: 'acme', email: 'alice@example.org', password });
  deps.advance(1_000);
  const { token } = await signIn(deps, { email: 'alice@example.org', password });
  await deleteUser(deps, 'alice@example.org');
  t.same(await listUsers(deps), []);
  t.equal(await resumeSession(deps, token), null);
  await t.rejects(deleteUser(deps, 'alice@example.org'), { code: 'user_not_found' });
});
