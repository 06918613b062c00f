import type { Session, User } from '../../src/domain/user.js';
import type { ContractContext, ContractTest } from './store.js';

const userOf = ({ ns }: ContractContext, fields: Partial<User> = {}): User => ({
  email: ns('alice@example.test'),
  accountId: ns('acct-1'),
  passwordHash: 'scrypt$131072$8$1$c2FsdA$aGFzaA',
  createdAt: '2024-03-01T00:00:00.000Z',
  sessionsValidAfter: null,
  ...fields,
});

const sessionOf = ({ ns }: ContractContext, fields: Partial<Session> = {}): Session => ({
  id: ns('session-a'),
  email: ns('alice@example.test'),
  accountId: ns('acct-1'),
  createdAt: '2024-03-01T00:00:00.000Z',
  lastSeenAt: '2024-03-01T00:00:00.000Z',
  ...fields,
});

/** An end far enough ahead that no store forgets the session during the test. */
const later = (): string => new Date(Date.now() + 3_600_000).toISOString();

export function userStoreContract(test: ContractTest): void {
  test('a stored user reads back as written', async (t, ctx) => {
    const { users } = ctx.store;
    t.equal(await users.insert(userOf(ctx)), true);
    t.same(await users.get(ctx.ns('alice@example.test')), userOf(ctx));
    t.equal(await users.get(ctx.ns('bob@example.test')), undefined);
  });

  test('an email is taken once: a second insert says false and changes nothing', async (t, ctx) => {
    const { users } = ctx.store;
    t.equal(await users.insert(userOf(ctx)), true);
    t.equal(await users.insert(userOf(ctx, { accountId: ctx.ns('acct-2'), passwordHash: 'other' })), false);
    t.same(await users.get(ctx.ns('alice@example.test')), userOf(ctx));
  });

  test('users are listed oldest first', async (t, ctx) => {
    const { users } = ctx.store;
    await users.insert(userOf(ctx, { email: ctx.ns('late@x.test'), createdAt: '2024-03-03T00:00:00.000Z' }));
    await users.insert(userOf(ctx, { email: ctx.ns('early@x.test'), createdAt: '2024-03-01T00:00:00.000Z' }));
    await users.insert(userOf(ctx, { email: ctx.ns('middle@x.test'), createdAt: '2024-03-02T00:00:00.000Z' }));
    const ours = (await users.list()).filter((user) => user.email.startsWith(ctx.ns('')));
    t.same(
      ours.map((user) => user.email),
      ['early@x.test', 'middle@x.test', 'late@x.test'].map(ctx.ns),
    );
  });

  test('a new password ends the sessions before it; an unknown email says false and creates nothing', async (t, ctx) => {
    const { users } = ctx.store;
    await users.insert(userOf(ctx));
    t.equal(await users.setPassword(ctx.ns('alice@example.test'), 'new-hash', '2024-03-05T00:00:00.000Z'), true);
    t.match(await users.get(ctx.ns('alice@example.test')), {
      passwordHash: 'new-hash',
      sessionsValidAfter: '2024-03-05T00:00:00.000Z',
      accountId: ctx.ns('acct-1'),
    });
    t.equal(await users.setPassword(ctx.ns('nobody@example.test'), 'x', '2024-03-05T00:00:00.000Z'), false);
    t.equal(await users.get(ctx.ns('nobody@example.test')), undefined);
  });

  test('ending sessions moves sessionsValidAfter; an unknown email says false and creates nothing', async (t, ctx) => {
    const { users } = ctx.store;
    await users.insert(userOf(ctx));
    t.equal(await users.endSessions(ctx.ns('alice@example.test'), '2024-03-06T00:00:00.000Z'), true);
    t.same(await users.get(ctx.ns('alice@example.test')), userOf(ctx, { sessionsValidAfter: '2024-03-06T00:00:00.000Z' }));
    t.equal(await users.endSessions(ctx.ns('nobody@example.test'), '2024-03-06T00:00:00.000Z'), false);
    t.equal(await users.get(ctx.ns('nobody@example.test')), undefined);
  });

  test('a deleted user is gone, and deleting again says false', async (t, ctx) => {
    const { users } = ctx.store;
    await users.insert(userOf(ctx));
    t.equal(await users.delete(ctx.ns('alice@example.test')), true);
    t.equal(await users.get(ctx.ns('alice@example.test')), undefined);
    t.equal(await users.delete(ctx.ns('alice@example.test')), false);
    t.equal((await users.list()).filter((user) => user.email.startsWith(ctx.ns(''))).length, 0);
    t.equal(await users.insert(userOf(ctx)), true, 'the email can be taken again');
  });
}

export function sessionStoreContract(test: ContractTest): void {
  test('a stored session reads back as written', async (t, ctx) => {
    const { sessions } = ctx.store;
    await sessions.insert(sessionOf(ctx), later());
    t.same(await sessions.get(ctx.ns('session-a')), sessionOf(ctx));
    t.equal(await sessions.get(ctx.ns('session-b')), undefined);
  });

  test('a touch moves lastSeenAt only; touching an unknown session creates nothing', async (t, ctx) => {
    const { sessions } = ctx.store;
    await sessions.insert(sessionOf(ctx), later());
    await sessions.touch(ctx.ns('session-a'), '2024-03-01T00:05:00.000Z');
    t.same(await sessions.get(ctx.ns('session-a')), sessionOf(ctx, { lastSeenAt: '2024-03-01T00:05:00.000Z' }));
    await sessions.touch(ctx.ns('session-b'), '2024-03-01T00:05:00.000Z');
    t.equal(await sessions.get(ctx.ns('session-b')), undefined);
  });

  test('a deleted session is gone; deleting again and touching it afterwards are harmless', async (t, ctx) => {
    const { sessions } = ctx.store;
    await sessions.insert(sessionOf(ctx), later());
    await sessions.insert(sessionOf(ctx, { id: ctx.ns('session-b') }), later());
    await sessions.delete(ctx.ns('session-a'));
    await sessions.delete(ctx.ns('session-a'));
    await sessions.touch(ctx.ns('session-a'), '2024-03-01T00:05:00.000Z');
    t.equal(await sessions.get(ctx.ns('session-a')), undefined);
    t.same(await sessions.get(ctx.ns('session-b')), sessionOf(ctx, { id: ctx.ns('session-b') }), 'the other session is untouched');
  });
}
