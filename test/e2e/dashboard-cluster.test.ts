import { randomBytes } from 'node:crypto';
import t from 'tap';
import { chromiumExecutable } from '../fixtures/browser.js';
import { startDashboardStack } from '../fixtures/dashboard-stack.js';
import { dashboardFlow } from './dashboard-flow.js';

// The same walk-through with the api role in cluster mode: `feedmill api` and `feedmill worker` as
// two processes on Cassandra and Redis. Sessions live in the store, and the live update travels from
// the worker to the api over the Redis bus.
const chromium = chromiumExecutable();
if ('skip' in chromium) {
  t.plan(0, chromium.skip);
} else {
  const contactPoints = process.env.FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS;
  const redisUrl = process.env.FEEDMILL_TEST_REDIS_URL;
  if (!contactPoints || !redisUrl)
    throw new Error('FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS / FEEDMILL_TEST_REDIS_URL are not set: run the tests with `npm test`');
  // A new keyspace is migrated first, many times slower on a loaded 2-core machine.
  t.setTimeout(300_000);
  const run = randomBytes(4).toString('hex');
  const stack = await startDashboardStack({
    chromiumPath: chromium.path,
    roles: 'split',
    storeEnv: {
      FEEDMILL_STORE: 'cassandra',
      FEEDMILL_CASSANDRA_CONTACT_POINTS: contactPoints,
      FEEDMILL_CASSANDRA_KEYSPACE: `e2e_dashboard_${run}`,
      FEEDMILL_CASSANDRA_CONSISTENCY: 'ONE',
      // A database of its own per run keeps other runs' queues and events apart.
      FEEDMILL_REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/${1 + (Number.parseInt(run.slice(0, 2), 16) % 15)}`,
    },
  });
  t.teardown(() => stack.stop());
  await dashboardFlow(stack);
}
