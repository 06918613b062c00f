import t from 'tap';
import { openCassandraStore } from '../../src/adapters/cassandra/index.js';
import { cassandraTestOptions, dropKeyspace } from './cassandra-test-options.js';
import { storeContract } from './store.js';

// The cluster adapter against a real server, in a keyspace created for this run and dropped after.
storeContract(t, 'cassandra', async () => {
  const options = cassandraTestOptions();
  const store = await openCassandraStore(options);
  return {
    ...store,
    close: async () => {
      await store.close();
      await dropKeyspace(options);
    },
  };
});
