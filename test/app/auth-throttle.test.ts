import t from 'tap';
import { createAuthThrottle } from '../../src/app/auth-throttle.js';

t.test('after the free failures each further failure doubles the wait, up to the longest', async (t) => {
  const throttle = createAuthThrottle({ freeFailures: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 });
  let now = 0;
  for (let i = 0; i < 2; i += 1) throttle.failed(['key:a'], now);
  t.equal(throttle.waitSeconds(['key:a'], now), 0, 'two failures: no wait yet');
  const waits: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    throttle.failed(['key:a'], now);
    const wait = throttle.waitSeconds(['key:a'], now);
    waits.push(wait);
    now += wait * 1000;
  }
  t.same(waits, [1, 2, 4, 8, 8, 8]);
  t.equal(throttle.waitSeconds(['key:b'], now), 0, 'another subject is free');
  t.equal(throttle.waitSeconds(['key:b', 'key:a'], now - 1000), 1, 'the most delayed subject of a request counts');
});

t.test('failures are forgotten a while after the wait, and at once after a success', async (t) => {
  const throttle = createAuthThrottle({ freeFailures: 1, baseDelayMs: 1_000, maxDelayMs: 4_000 });
  throttle.failed(['address:x'], 0);
  t.equal(throttle.waitSeconds(['address:x'], 0), 1);
  throttle.failed(['address:x'], 1_000);
  t.equal(throttle.waitSeconds(['address:x'], 1_000), 2, 'the second failure waits longer');
  throttle.failed(['address:x'], 3_000 + 4_000);
  t.equal(throttle.waitSeconds(['address:x'], 7_000), 1, 'past its wait plus the longest wait, the count starts again');
  throttle.succeeded('address:x');
  t.equal(throttle.waitSeconds(['address:x'], 7_000), 0);
});

t.test('a flood of made-up subjects forgets the stalest, not the memory', async (t) => {
  const throttle = createAuthThrottle({ freeFailures: 1, maxSubjects: 100 });
  throttle.failed(['key:first'], 0);
  for (let i = 0; i < 1_000; i += 1) throttle.failed([`key:${i}`], 0);
  t.equal(throttle.waitSeconds(['key:first'], 0), 0, 'the oldest subject was dropped');
  t.equal(throttle.waitSeconds(['key:999'], 0), 1, 'the newest is kept');
});
