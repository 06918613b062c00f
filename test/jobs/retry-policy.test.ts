import t from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { retryDelayMs } from '../../src/jobs/retry-policy.js';

t.test('our own faults are retried soon, doubling; a bug slowly; both stop growing at 15 minutes', async (t) => {
  const down = new FeedmillError('store_unavailable', 'Cassandra did not answer');
  t.same(
    [1, 2, 3, 4].map((n) => retryDelayMs(down, n)),
    [1_000, 2_000, 4_000, 8_000],
  );
  const bug = new TypeError('undefined is not a function');
  t.same(
    [1, 2, 3].map((n) => retryDelayMs(bug, n)),
    [30_000, 60_000, 120_000],
  );
  t.equal(retryDelayMs(down, 40), 15 * 60_000);
  t.equal(retryDelayMs(bug, 40), 15 * 60_000);
});
