import t from 'tap';
import type { ApiKey } from '../../../src/domain/api-key.js';
import { openTempStore } from './temp-store.js';

const key = (fields: Partial<ApiKey> = {}): ApiKey => ({
  id: 'fmk_AAAAAAAAAAAAAAAA',
  accountId: 'acct-1',
  scopes: ['read', 'write'],
  secretHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
  createdAt: '2024-03-01T00:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
  ...fields,
});

t.test('a stored key reads back with its scopes and hash', async (t) => {
  const { keys } = openTempStore(t);
  await keys.insert(key());
  await keys.insert(key({ id: 'fmk_BBBBBBBBBBBBBBBB', scopes: ['read'] }));
  t.same(await keys.get('fmk_AAAAAAAAAAAAAAAA'), key());
  t.same((await keys.get('fmk_BBBBBBBBBBBBBBBB'))?.scopes, ['read']);
  t.equal(await keys.get('fmk_CCCCCCCCCCCCCCCC'), undefined);
});

t.test('keys are listed oldest first', async (t) => {
  const { keys } = openTempStore(t);
  await keys.insert(key({ id: 'fmk_late', createdAt: '2024-03-03T00:00:00.000Z' }));
  await keys.insert(key({ id: 'fmk_early', createdAt: '2024-03-01T00:00:00.000Z' }));
  await keys.insert(key({ id: 'fmk_middle', createdAt: '2024-03-02T00:00:00.000Z' }));
  t.same(
    (await keys.list()).map((k) => k.id),
    ['fmk_early', 'fmk_middle', 'fmk_late'],
  );
});

t.test('a revoked key stays listed with when it was revoked, and revoking again says false', async (t) => {
  const { keys } = openTempStore(t);
  await keys.insert(key());
  t.equal(await keys.revoke('fmk_AAAAAAAAAAAAAAAA', '2024-03-05T00:00:00.000Z'), true);
  t.equal((await keys.get('fmk_AAAAAAAAAAAAAAAA'))?.revokedAt, '2024-03-05T00:00:00.000Z');
  t.equal(await keys.revoke('fmk_AAAAAAAAAAAAAAAA', '2024-03-06T00:00:00.000Z'), false);
  t.equal((await keys.get('fmk_AAAAAAAAAAAAAAAA'))?.revokedAt, '2024-03-05T00:00:00.000Z', 'the first revocation time is kept');
  t.equal(await keys.revoke('fmk_unknown', '2024-03-06T00:00:00.000Z'), false);
  t.equal((await keys.list()).length, 1);
});

t.test('a key id is used once', async (t) => {
  const { keys } = openTempStore(t);
  await keys.insert(key());
  await t.rejects(keys.insert(key({ secretHash: 'other' })));
  t.equal((await keys.get('fmk_AAAAAAAAAAAAAAAA'))?.secretHash, key().secretHash);
});
