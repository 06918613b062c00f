import t from 'tap';
import { hashPassword, hashSecret, scryptMemoryInFlight, verifyPassword, verifySecret } from '../../src/crypto/secret-hash.js';

t.test('secrets and passwords share one format, at their own costs', async (t) => {
  const secret = await hashSecret('an-api-secret');
  const password = await hashPassword('a long passphrase');
  t.match(secret, /^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
  t.match(password, /^scrypt\$131072\$8\$1\$[\w-]+\$[\w-]+$/, 'OWASP password cost: N=2^17, r=8, p=1');
  t.ok(await verifySecret('an-api-secret', secret));
  t.ok(await verifyPassword('a long passphrase', password));
  t.notOk(await verifyPassword('a long passphrasE', password));
  t.not(await hashPassword('a long passphrase'), password, 'a fresh salt each time');
});

t.test('a stored hash that asks for absurd memory or is malformed never matches and never runs', async (t) => {
  for (const stored of [
    'scrypt$1073741824$8$1$c2FsdA$aGFzaA',
    'scrypt$131072$64$1$c2FsdA$aGFzaA',
    'scrypt$1000$8$1$c2FsdA$aGFzaA',
    'bcrypt$x',
    '',
  ]) {
    t.equal(await verifyPassword('anything', stored), false, stored);
  }
});

t.test('concurrent password checks stay within the memory budget of two', async (t) => {
  const stored = await hashPassword('a long passphrase');
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, scryptMemoryInFlight())), 5);
  const results = await Promise.all(Array.from({ length: 4 }, () => verifyPassword('a long passphrase', stored)));
  clearInterval(sampler);
  t.same(results, [true, true, true, true], 'every check completes');
  const onePassword = 128 * 2 ** 17 * 8 + 1024 * 1024;
  t.ok(peak >= onePassword, 'the sampler saw checks running');
  t.ok(peak <= 2 * onePassword, `at most two at once (peak ${peak} bytes)`);
  t.equal(scryptMemoryInFlight(), 0, 'all released');
});
