import t from 'tap';
import { createIntentVerifier } from '../../src/app/websub-verifier.js';
import type { Intent, VerificationOutcome } from '../../src/app/websub-subscribe.js';

const intent = (callback: string): Intent => ({
  mode: 'subscribe',
  topic: { url: 'https://feeds.example.test/feeds/AAAAAAAAAAAAAAAA.xml', id: 'AAAAAAAAAAAAAAAA', format: 'xml' },
  callback,
  leaseSeconds: 3600,
  secret: null,
});

t.test('one callback host cannot hold every verification slot: past its share it is refused, others are not', async (t) => {
  // Verifications that hang until released, as a subscriber that never answers would.
  const waiting: (() => void)[] = [];
  const verifier = createIntentVerifier({
    verify: () => new Promise<VerificationOutcome>((resolve) => waiting.push(() => resolve('refused'))),
    onError: () => undefined,
    maxPending: 256,
    maxPendingPerHost: 3,
  });
  for (let i = 0; i < 3; i += 1) verifier.start(intent(`https://slow.example/cb/${i}`));
  t.throws(() => verifier.start(intent('https://slow.example/cb/again')), { code: 'rate_limited', message: /`slow\.example`/ });
  verifier.start(intent('https://other.example/cb'));
  t.equal(verifier.size, 4, 'another host still gets a slot');
  waiting.shift()?.();
  await new Promise((resolve) => setImmediate(resolve));
  verifier.start(intent('https://slow.example/cb/after'));
  t.pass('once one of its verifications ended, the host gets that slot back');
  for (const release of waiting) release();
  await verifier.drain();
  t.equal(verifier.size, 0);
});
