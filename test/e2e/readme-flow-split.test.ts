import { randomBytes } from 'node:crypto';
import { readmeFlow } from './readme-flow.js';

// Cluster mode as deployed: `feedmill api` and `feedmill worker` as separate processes on Cassandra
// and Redis; the same walk-through as `feedmill all` must pass.
const contactPoints = process.env.FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS;
const redisUrl = process.env.FEEDMILL_TEST_REDIS_URL;
if (!contactPoints || !redisUrl)
  throw new Error('FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS / FEEDMILL_TEST_REDIS_URL are not set: run the tests with `npm test`');
const run = randomBytes(4).toString('hex');
await readmeFlow(
  {
    FEEDMILL_STORE: 'cassandra',
    FEEDMILL_CASSANDRA_CONTACT_POINTS: contactPoints,
    FEEDMILL_CASSANDRA_KEYSPACE: `e2e_split_${run}`,
    FEEDMILL_CASSANDRA_CONSISTENCY: 'ONE',
    // A database of its own per run keeps queues of other runs out of the metrics it asserts.
    FEEDMILL_REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/${1 + (Number.parseInt(run.slice(0, 2), 16) % 15)}`,
  },
  'split',
);
