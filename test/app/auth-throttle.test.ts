import t from 'tap';
import { createLocalAuthThrottle } from '../../src/adapters/local-auth-throttle/local-auth-throttle.js';
import { withFallback } from '../../src/app/auth-throttle.js';
import type { AuthThrottle } from '../../src/ports/auth-throttle.js';

interface Flaky {
  throttle: AuthThrottle;
  /** The server answers again. */
  back: boolean;
}

/** A shared throttle whose server is away until `back` is set. */
function flaky(): Flaky {
  const inner = createLocalAuthThrottle({ freeFailures: 1 });
  const away = (): Promise<never> => Promise.reject(new Error('Connection is closed.'));
  const state: Flaky = {
    back: false,
    throttle: {
      waitSeconds: (subjects, now) => (state.back ? inner.waitSeconds(subjects, now) : away()),
      failed: (subjects, now) => (state.back ? inner.failed(subjects, now) : away()),
      failedFrom: (subject, source, now) => (state.back ? inner.failedFrom(subject, source, now) : away()),
      succeeded: (subject) => (state.back ? inner.succeeded(subject) : away()),
    },
  };
  return state;
}

t.test('while the shared throttle is away, this process counts failures itself, and says so once', async (t) => {
  const shared = flaky();
  const errors: unknown[] = [];
  const throttle = withFallback(shared.throttle, createLocalAuthThrottle({ freeFailures: 1 }), (error) => errors.push(error));
  await throttle.failed(['key:k'], 0);
  t.equal(await throttle.waitSeconds(['key:k'], 0), 1, 'the local count holds the guesser back');
  await throttle.failed(['key:k'], 0);
  t.equal(errors.length, 1, 'one warning per outage, not one per request');
  shared.back = true;
  t.equal(await throttle.waitSeconds(['key:k'], 0), 0, 'once back, the shared count is used again');
  shared.back = false;
  await throttle.failed(['key:j'], 0);
  t.equal(errors.length, 2, 'a new outage is reported again');
});
