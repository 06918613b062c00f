import { Client } from 'cassandra-driver';
import t from 'tap';
import { openCassandraStore } from '../../../src/adapters/cassandra/index.js';
import type { FeedEventEnvelope } from '../../../src/webhook-event/feed-update-event.js';
import type { StoredItem } from '../../../src/domain/stored-item.js';
import { cassandraTestOptions, dropKeyspace } from '../../contract/cassandra-test-options.js';

// Each test migrates a keyspace of its own: schema changes take tens of seconds on a loaded
// machine, past tap's default of 120 s for the whole file.
t.setTimeout(600_000);

const feedId = 'RRRRRRRRRRRRRRRR';

const item = (n: number): StoredItem => ({
  id: `guid-${n}`,
  url: `https://example.com/posts/${n}`,
  title: `Post ${n}`,
  description_text: `Body ${n}`,
  description_html: `<p>Body ${n}</p>`,
  thumbnail: null,
  authors: [],
  date_published: `2024-03-0${n}T00:00:00.000Z`,
  categories: [],
  enclosures: [],
  feedId,
  key: `g:guid-${n}`,
  contentHash: `hash-${n}`,
  addedAt: '2024-03-10T00:00:00.000Z',
  publishedAt: `2024-03-0${n}T00:00:00.000Z`,
});

const event: FeedEventEnvelope = {
  itemKeys: ['g:guid-1', 'g:guid-2'],
  accountId: 'acct',
  feedId,
  occurredAt: '2024-03-10T00:00:00.000Z',
  event: {
    id: 'evt_repairrepairrepairrepai',
    type: 'feed_update',
    feed: {
      id: feedId,
      title: 'A feed',
      source_url: 'https://example.com/feed',
      rss_feed_url: 'https://feeds.example.test/feeds/f.xml',
      description: '',
      icon: '',
    },
    data: { items_new: [], items_changed: [] },
  },
};

t.test('a commit whose writer died after its conditional batch is finished by the next refresh that reads the feed', async (t) => {
  const options = cassandraTestOptions();
  t.teardown(() => dropKeyspace(options));
  const store = await openCassandraStore(options);
  t.teardown(() => store.close());
  t.ok(await store.items.commit(feedId, 0, [item(2), item(1)], event));
  const client = new Client({ contactPoints: options.contactPoints, localDataCenter: options.localDataCenter, keyspace: options.keyspace });
  t.teardown(() => client.shutdown());
  // Undo everything the commit does after its batch: what a writer that died right there leaves.
  await client.execute('DELETE FROM items_by_added WHERE feed_id = ?', [feedId], { prepare: true });
  await client.execute('DELETE FROM items_by_published WHERE feed_id = ?', [feedId], { prepare: true });
  await client.execute('DELETE FROM events WHERE id = ?', [event.event.id], { prepare: true });
  await client.execute('DELETE FROM events_unpublished WHERE id = ?', [event.event.id], { prepare: true });
  await client.execute('UPDATE items SET settled = null WHERE feed_id = ?', [feedId], { prepare: true });
  t.same(await store.items.list(feedId, 'last_added', 10), [], 'the orders lost their rows');

  const snapshot = await store.items.known(feedId);
  t.equal(snapshot.version, 1);
  t.same([...snapshot.items.keys()].sort(), ['g:guid-1', 'g:guid-2']);
  t.same(
    (await store.items.list(feedId, 'last_added', 10)).map((stored) => stored.title),
    ['Post 2', 'Post 1'],
    'both orders are rebuilt',
  );
  t.same(
    (await store.items.list(feedId, 'date', 10)).map((stored) => stored.title),
    ['Post 2', 'Post 1'],
  );
  t.same(
    (await store.outbox.unpublished(10)).map((envelope) => envelope.event.id),
    [event.event.id],
    'the event is in the outbox, waiting to be published',
  );
  await store.outbox.markPublished(event.event.id, '2024-03-10T00:00:01.000Z');
  await store.items.known(feedId);
  t.same(await store.outbox.unpublished(10), [], 'a settled commit is not finished again');
});
