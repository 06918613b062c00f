import t from 'tap';
import { feedPollPolicy, nextPollAt, retryAfterCapSeconds, type PollPolicy, type PollSignals } from '../../src/domain/poll-policy.js';

const now = new Date('2024-03-05T12:00:00.000Z');
const policy: PollPolicy = { minSeconds: 300, maxSeconds: 21_600 };
// jitter 0.5 is the middle of the ±10% band: exactly the computed interval
const signals = (fields: Partial<PollSignals>): PollSignals => ({
  outcome: 'changed',
  unchangedStreak: 0,
  errorCount: 0,
  jitter: 0.5,
  ...fields,
});
const secondsUntil = (fields: Partial<PollSignals>, p: PollPolicy = policy): number =>
  (nextPollAt(now, p, signals(fields)).getTime() - now.getTime()) / 1000;

t.test('a feed that just had news is polled again after the minimum interval', async (t) => {
  t.equal(secondsUntil({ outcome: 'changed' }), 300);
  t.equal(secondsUntil({ outcome: 'changed', unchangedStreak: 0, errorCount: 0 }, { minSeconds: 60, maxSeconds: 3600 }), 60);
});

t.test('each quiet refresh doubles the wait, up to the maximum', async (t) => {
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 1 }), 600);
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 2 }), 1200);
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 5 }), 9600);
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 6 }), 19_200);
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 7 }), 21_600);
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 10_000 }), 21_600, 'a very long streak stays finite');
});

t.test('news resets the wait to the minimum whatever the streak', async (t) => {
  t.equal(secondsUntil({ outcome: 'changed', unchangedStreak: 8 }), 300);
});

t.test('failures back off exponentially, up to the maximum', async (t) => {
  t.equal(secondsUntil({ outcome: 'error', errorCount: 1 }), 600);
  t.equal(secondsUntil({ outcome: 'error', errorCount: 3 }), 2400);
  t.equal(secondsUntil({ outcome: 'error', errorCount: 50 }), 21_600);
});

t.test("a source's ttl, max-age or Retry-After is never undercut", async (t) => {
  t.equal(secondsUntil({ ttlMinutes: 60 }), 3600);
  t.equal(secondsUntil({ maxAgeSeconds: 1800 }), 1800);
  t.equal(secondsUntil({ outcome: 'error', errorCount: 1, retryAfterSeconds: 7200 }), 7200);
  t.equal(secondsUntil({ ttlMinutes: 10, maxAgeSeconds: 900, retryAfterSeconds: 60 }), 900, 'the longest request wins');
  // with the jitter at its low end, the wait still honours what the source asked
  t.equal(secondsUntil({ ttlMinutes: 60, jitter: 0 }), 3600);
  t.equal(secondsUntil({ maxAgeSeconds: 1800, jitter: 0 }), 1800);
  t.equal(secondsUntil({ outcome: 'error', errorCount: 1, retryAfterSeconds: 7200, jitter: 0 }), 7200);
  t.ok(secondsUntil({ ttlMinutes: 60, jitter: 0.9 }) > 3600, 'jitter still spreads upwards');
});

t.test('a shorter ttl than our own interval does not make us poll sooner', async (t) => {
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 2, ttlMinutes: 1 }), 1200);
});

t.test('a ttl or max-age beyond the maximum interval is capped at the maximum', async (t) => {
  t.equal(secondsUntil({ ttlMinutes: 24 * 60 }), 21_600);
  t.equal(secondsUntil({ maxAgeSeconds: 10 ** 6 }), 21_600);
});

t.test('Retry-After is honoured above the maximum interval, up to the hard cap', async (t) => {
  const tight: PollPolicy = { minSeconds: 1, maxSeconds: 2 };
  t.equal(
    secondsUntil({ outcome: 'error', errorCount: 1, retryAfterSeconds: 40 }, tight),
    40,
    'a 429 asking for 40 s under a 2 s ceiling waits 40 s',
  );
  t.equal(
    secondsUntil({ outcome: 'error', errorCount: 1, retryAfterSeconds: 40, jitter: 0.999 }, tight),
    40,
    'jitter does not pass what was asked',
  );
  t.equal(
    secondsUntil({ outcome: 'error', errorCount: 1, retryAfterSeconds: 10 ** 9 }),
    retryAfterCapSeconds,
    'a huge Retry-After stops at the cap',
  );
  t.equal(secondsUntil({ outcome: 'error', errorCount: 30 }, tight), 2, 'without Retry-After the ceiling holds');
});

t.test("a feed's min_interval raises the floor, and the ceiling when it passes it", async (t) => {
  t.same(feedPollPolicy(policy, null), policy);
  t.same(feedPollPolicy(policy, 900), { minSeconds: 900, maxSeconds: 21_600 });
  t.same(feedPollPolicy(policy, 60), policy, 'never below the global floor');
  t.same(feedPollPolicy(policy, 86_400), { minSeconds: 86_400, maxSeconds: 86_400 });
  t.equal(secondsUntil({ outcome: 'changed' }, feedPollPolicy(policy, 900)), 900);
});

t.test('jitter spreads polls by ±10% and never leaves the bounds', async (t) => {
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 2, jitter: 0 }), 1080);
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 2, jitter: 0.999 }), Math.round(1200 * (0.9 + 0.2 * 0.999) * 1000) / 1000);
  t.equal(secondsUntil({ outcome: 'changed', jitter: 0 }), 300, 'never sooner than the minimum');
  t.equal(secondsUntil({ outcome: 'unchanged', unchangedStreak: 20, jitter: 0.999 }), 21_600, 'never later than the maximum');
  const spread = new Set([0, 0.25, 0.5, 0.75].map((jitter) => secondsUntil({ outcome: 'unchanged', unchangedStreak: 2, jitter })));
  t.equal(spread.size, 4, 'different jitter, different times');
});

t.test('the next poll is a time after now, computed from the now given', async (t) => {
  const later = new Date('2030-01-01T00:00:00.000Z');
  t.equal(nextPollAt(later, policy, signals({})).toISOString(), '2030-01-01T00:05:00.000Z');
});
