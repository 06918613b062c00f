import { randomBytes } from 'node:crypto';
import { readmeFlow } from './readme-flow.js';

// The same walk-through with FEEDMILL_STORE=cassandra against the real server scripts/test.sh starts.
const contactPoints = process.env.FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS;
if (!contactPoints)
  throw new Error('FEEDMILL_TEST_CASSANDRA_CONTACT_POINTS is not set: run the tests with `npm test`, which starts Cassandra');
await readmeFlow({
  FEEDMILL_STORE: 'cassandra',
  FEEDMILL_CASSANDRA_CONTACT_POINTS: contactPoints,
  FEEDMILL_CASSANDRA_KEYSPACE: `e2e_${randomBytes(4).toString('hex')}`,
  FEEDMILL_CASSANDRA_CONSISTENCY: 'ONE',
});
