import type { ApiKey } from '../../src/domain/api-key.js';
import type { ContractContext, ContractTest } from './store.js';

const keyOf = ({ ns }: ContractContext, fields: Partial<ApiKey> = {}): ApiKey => ({
  id: ns('fmk_A'),
  accountId: ns('acct-1'),
  scopes: ['read', 'write'],
  secretHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
  createdAt: '2024-03-01T00:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
  ...fields,
});

export function keyStoreContract(test: ContractTest): void {
  test('a stored key reads back with its scopes and hash', async (t, ctx) => {
    const { keys } = ctx.store;
    await keys.insert(keyOf(ctx));
    await keys.insert(keyOf(ctx, { id: ctx.ns('fmk_B'), scopes: ['read'] }));
    t.same(await keys.get(ctx.ns('fmk_A')), keyOf(ctx));
    t.same((await keys.get(ctx.ns('fmk_B')))?.scopes, ['read']);
    t.equal(await keys.get(ctx.ns('fmk_C')), undefined);
  });

  test('keys are listed oldest first', async (t, ctx) => {
    const { keys } = ctx.store;
    await keys.insert(keyOf(ctx, { id: ctx.ns('late'), createdAt: '2024-03-03T00:00:00.000Z' }));
    await keys.insert(keyOf(ctx, { id: ctx.ns('early'), createdAt: '2024-03-01T00:00:00.000Z' }));
    await keys.insert(keyOf(ctx, { id: ctx.ns('middle'), createdAt: '2024-03-02T00:00:00.000Z' }));
    const ours = (await keys.list()).filter((key) => key.id.startsWith(ctx.ns('')));
    t.same(
      ours.map((k) => k.id),
      ['early', 'middle', 'late'].map(ctx.ns),
    );
  });

  test('a revoked key stays listed with when it was revoked, and revoking again says false', async (t, ctx) => {
    const { keys } = ctx.store;
    const id = ctx.ns('fmk_A');
    await keys.insert(keyOf(ctx));
    t.equal(await keys.revoke(id, '2024-03-05T00:00:00.000Z'), true);
    t.equal((await keys.get(id))?.revokedAt, '2024-03-05T00:00:00.000Z');
    t.equal(await keys.revoke(id, '2024-03-06T00:00:00.000Z'), false);
    t.equal((await keys.get(id))?.revokedAt, '2024-03-05T00:00:00.000Z', 'the first revocation time is kept');
    t.equal(await keys.revoke(ctx.ns('fmk_unknown'), '2024-03-06T00:00:00.000Z'), false);
    t.equal(await keys.get(ctx.ns('fmk_unknown')), undefined, 'revoking an unknown key creates nothing');
    t.equal((await keys.list()).filter((key) => key.id.startsWith(ctx.ns(''))).length, 1);
  });

  test('a key id is used once', async (t, ctx) => {
    const { keys } = ctx.store;
    await keys.insert(keyOf(ctx));
    await t.rejects(keys.insert(keyOf(ctx, { secretHash: 'other' })));
    t.equal((await keys.get(ctx.ns('fmk_A')))?.secretHash, keyOf(ctx).secretHash);
  });

  test('a touch records when a key was last used; an unknown key stays unknown', async (t, ctx) => {
    const { keys } = ctx.store;
    await keys.insert(keyOf(ctx));
    t.equal((await keys.get(ctx.ns('fmk_A')))?.lastUsedAt, null, 'a new key has not been used');
    await keys.touch(ctx.ns('fmk_A'), '2024-03-02T10:00:00.000Z');
    t.same(await keys.get(ctx.ns('fmk_A')), keyOf(ctx, { lastUsedAt: '2024-03-02T10:00:00.000Z' }));
    await keys.touch(ctx.ns('fmk_unknown'), '2024-03-02T10:00:00.000Z');
    t.equal(await keys.get(ctx.ns('fmk_unknown')), undefined);
  });
}
