import type { Test } from 'tap';
import type { AuthDelayPolicy } from '../../src/domain/auth-delay.js';
import type { AuthThrottle } from '../../src/ports/auth-throttle.js';

/** A fresh throttle with this policy, remembering nothing; `close` removes what it stored. */
export type MakeAuthThrottle = (policy: Partial<AuthDelayPolicy>) => Promise<{ throttle: AuthThrottle; close(): Promise<void> }>;

/** The failure throttle conformance suite (STYLE.md habit 4), for the in-process one and Redis alike. */
export function authThrottleContract(t: Test, name: string, make: MakeAuthThrottle): void {
  const setup = async (t: Test, policy: Partial<AuthDelayPolicy>): Promise<AuthThrottle> => {
    const made = await make(policy);
    t.teardown(() => made.close());
    return made.throttle;
  };

  t.test(`${name}: after the free failures each further failure doubles the wait, up to the longest`, async (t) => {
    const throttle = await setup(t, { freeFailures: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 });
    let now = Date.parse('2026-11-24T12:00:00Z');
    for (let i = 0; i < 2; i += 1) await throttle.failed(['key:a'], now);
    t.equal(await throttle.waitSeconds(['key:a'], now), 0, 'two failures: no wait yet');
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      await throttle.failed(['key:a'], now);
      const wait = await throttle.waitSeconds(['key:a'], now);
      waits.push(wait);
      now += wait * 1000;
    }
    t.same(waits, [1, 2, 4, 8, 8, 8]);
    t.equal(await throttle.waitSeconds(['key:b'], now), 0, 'another subject is free');
    t.equal(await throttle.waitSeconds(['key:b', 'key:a'], now - 1000), 1, 'the most delayed subject of a request counts');
  });

  t.test(`${name}: one failure counts against every subject of the attempt`, async (t) => {
    const throttle = await setup(t, { freeFailures: 1 });
    const now = Date.parse('2026-11-24T12:00:00Z');
    await throttle.failed(['key:k', 'address:192.0.2.1'], now);
    t.equal(await throttle.waitSeconds(['key:other', 'address:192.0.2.1'], now), 1, 'the address waits, whatever key it names next');
    t.equal(await throttle.waitSeconds(['key:k', 'address:192.0.2.2'], now), 1, 'the key waits, from any address');
    t.equal(await throttle.waitSeconds(['key:other', 'address:192.0.2.2'], now), 0);
  });

  t.test(`${name}: a success forgets the subject's failures`, async (t) => {
    const throttle = await setup(t, { freeFailures: 1 });
    const now = Date.parse('2026-11-24T12:00:00Z');
    await throttle.failed(['address:x'], now);
    t.equal(await throttle.waitSeconds(['address:x'], now), 1);
    await throttle.succeeded('address:x');
    t.equal(await throttle.waitSeconds(['address:x'], now), 0);
    await throttle.failed(['address:x'], now);
    t.equal(await throttle.waitSeconds(['address:x'], now), 1, 'counting starts again from one');
  });

  t.test(`${name}: one source failing again and again never makes a subject counted by source wait`, async (t) => {
    const throttle = await setup(t, { freeFailures: 2, freeSources: 3 });
    let now = Date.parse('2026-11-24T12:00:00Z');
    for (let i = 0; i < 20; i += 1) {
      await throttle.failed(['address:192.0.2.1'], now);
      await throttle.failedFrom('user:alice@example.org', '192.0.2.1', now);
      now += (await throttle.waitSeconds(['address:192.0.2.1'], now)) * 1000;
    }
    t.equal(
      await throttle.waitSeconds(['user:alice@example.org', 'address:192.0.2.2'], now),
      0,
      'the person, from another address, may try',
    );
    await throttle.failed(['address:192.0.2.1'], now);
    t.ok((await throttle.waitSeconds(['user:alice@example.org', 'address:192.0.2.1'], now)) > 0, 'the failing address itself waits');
  });

  t.test(`${name}: a subject counted by source waits once its free sources have failed, doubling per further source`, async (t) => {
    const throttle = await setup(t, { freeSources: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 });
    const now = Date.parse('2026-11-24T12:00:00Z');
    for (const source of ['198.51.100.1', '198.51.100.2']) await throttle.failedFrom('user:bob@example.org', source, now);
    await throttle.failedFrom('user:bob@example.org', '198.51.100.2', now);
    t.equal(await throttle.waitSeconds(['user:bob@example.org'], now), 0, 'two distinct sources, one of them twice: no wait');
    await throttle.failedFrom('user:bob@example.org', '198.51.100.3', now);
    t.equal(await throttle.waitSeconds(['user:bob@example.org'], now), 1, 'the third distinct source: the first wait');
    await throttle.failedFrom('user:bob@example.org', '198.51.100.4', now);
    t.equal(await throttle.waitSeconds(['user:bob@example.org'], now), 2, 'each further source doubles it');
    for (let i = 5; i < 40; i += 1) await throttle.failedFrom('user:bob@example.org', `198.51.100.${i}`, now);
    t.equal(await throttle.waitSeconds(['user:bob@example.org'], now), 8, 'up to the longest wait, however many sources');
    await throttle.succeeded('user:bob@example.org');
    t.equal(await throttle.waitSeconds(['user:bob@example.org'], now), 0, 'a success forgets them');
    await throttle.failedFrom('user:bob@example.org', '198.51.100.3', now);
    t.equal(await throttle.waitSeconds(['user:bob@example.org'], now), 0, 'and counting starts again');
  });
}
