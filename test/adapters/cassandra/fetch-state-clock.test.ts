import { Client, policies } from 'cassandra-driver';
import t from 'tap';
import { createCql } from '../../../src/adapters/cassandra/cql.js';
import { createCassandraFeedStore } from '../../../src/adapters/cassandra/feed-store.js';
import { openCassandraStore } from '../../../src/adapters/cassandra/index.js';
import type { FetchState } from '../../../src/domain/feed.js';
import { cassandraTestOptions, dropKeyspace } from '../../contract/cassandra-test-options.js';
import { feedFixture } from '../../contract/store-feeds.js';
import { everyDueFeed } from '../../fixtures/due-feeds.js';

// Migrating a keyspace takes tens of seconds on a loaded machine, past tap's default of 120 s.
t.setTimeout(600_000);

/** The driver's own timestamps, from a clock an hour behind the Cassandra node's. */
class HourBehind extends policies.timestampGeneration.MonotonicTimestampGenerator {
  override getDate(): number {
    return Date.now() - 3_600_000;
  }
}

const feed = feedFixture({ ns: (name) => name });

t.test("a refresh's state is kept when the writer's clock runs behind the node that stamped the insert", async (t) => {
  const options = cassandraTestOptions();
  t.teardown(() => dropKeyspace(options));
  const migrated = await openCassandraStore(options);
  await migrated.close();
  const client = new Client({
    contactPoints: options.contactPoints,
    localDataCenter: options.localDataCenter,
    keyspace: options.keyspace,
    // The driver's own defaults for when to warn of a clock that went backwards.
    policies: { timestampGeneration: new HourBehind(1000, 1000) },
  });
  t.teardown(() => client.shutdown());
  const feeds = createCassandraFeedStore(createCql(client, options.keyspace));

  // The insert is a lightweight transaction: Cassandra stamps it with its own clock, now.
  await feeds.insert(feed);
  const state: FetchState = { errorCount: 0, unchangedStreak: 1, etag: '"v2"', lastStatus: 'not_modified' };
  await feeds.saveFetchState(feed.id, state, 'https://example.com/moved.xml');

  const stored = await feeds.getById(feed.id);
  t.same(stored?.fetch, state, "the refresh's state, not the one the feed was created with");
  t.equal(stored?.fetchUrl, 'https://example.com/moved.xml');
  const due = await everyDueFeed(feeds);
  t.same(due.find((entry) => entry.id === feed.id)?.fetch, state, 'and the schedule reads the same at start-up');
});
