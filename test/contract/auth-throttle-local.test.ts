import t from 'tap';
import { createLocalAuthThrottle } from '../../src/adapters/local-auth-throttle/local-auth-throttle.js';
import { authThrottleContract } from './auth-throttle.js';

authThrottleContract(t, 'local', async (policy) => ({ throttle: createLocalAuthThrottle(policy), close: async () => undefined }));

t.test('local: failures are forgotten a while after the wait', async (t) => {
  const throttle = createLocalAuthThrottle({ freeFailures: 1, baseDelayMs: 1_000, maxDelayMs: 4_000 });
  await throttle.failed(['address:x'], 0);
  await throttle.failed(['address:x'], 1_000);
  t.equal(await throttle.waitSeconds(['address:x'], 1_000), 2, 'the second failure waits longer');
  await throttle.failed(['address:x'], 3_000 + 4_000);
  t.equal(await throttle.waitSeconds(['address:x'], 7_000), 1, 'past its wait plus the longest wait, the count starts again');
});

t.test('local: a flood of made-up subjects forgets the stalest, not the memory', async (t) => {
  const throttle = createLocalAuthThrottle({ freeFailures: 1, maxSubjects: 100 });
  await throttle.failed(['key:first'], 0);
  for (let i = 0; i < 1_000; i += 1) await throttle.failed([`key:${i}`], 0);
  t.equal(await throttle.waitSeconds(['key:first'], 0), 0, 'the oldest subject was dropped');
  t.equal(await throttle.waitSeconds(['key:999'], 0), 1, 'the newest is kept');
});
