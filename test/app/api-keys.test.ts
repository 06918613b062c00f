import t from 'tap';
import { createKey, listAccountKeys, revokeAccountKey } from '../../src/app/api-keys.js';
import { userDeps } from './user-deps.js';

const principal = (accountId: string) => ({ accountId, keyId: `user:someone@${accountId}.test`, scopes: ['read', 'write'] as const });

t.test("an account's keys, newest first, without hashes, and no other account's", async (t) => {
  const deps = userDeps(t);
  const first = await createKey(deps, 'acme', ['read']);
  deps.advance(1_000);
  await createKey(deps, 'other', ['read']);
  deps.advance(1_000);
  const second = await createKey(deps, 'acme', ['read', 'write']);
  const keys = await listAccountKeys(deps, principal('acme'));
  t.same(
    keys.map((key) => key.id),
    [second.key, first.key],
  );
  t.ok(
    keys.every((key) => !('secretHash' in key)),
    'no hash leaves',
  );
  t.same(keys[0], {
    id: second.key,
    accountId: 'acme',
    scopes: ['read', 'write'],
    createdAt: second.created_at,
    revokedAt: null,
    lastUsedAt: null,
  });
});

t.test("revoking another account's key is key_not_found and leaves it live", async (t) => {
  const deps = userDeps(t);
  const theirs = await createKey(deps, 'other', ['read']);
  const ours = await createKey(deps, 'acme', ['read']);
  await t.rejects(revokeAccountKey(deps, principal('acme'), theirs.key), { code: 'key_not_found' });
  t.equal((await deps.keys.get(theirs.key))?.revokedAt, null);
  await revokeAccountKey(deps, principal('acme'), ours.key);
  t.equal((await deps.keys.get(ours.key))?.revokedAt, '2026-11-25T10:00:00.000Z');
  await t.rejects(revokeAccountKey(deps, principal('acme'), ours.key), { code: 'key_not_found' }, 'revoking twice');
  await t.rejects(revokeAccountKey(deps, principal('acme'), 'not-a-key'), { code: 'key_not_found' });
});
