import t from 'tap';
import { eventStream } from '../../src/app/event-stream.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import type { EventOutbox } from '../../src/ports/event-outbox.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const env = createTestDeps();
t.teardown(() => env.close());

const envelope = (name: string, minute: number, accountId = 'acct-switch'): FeedEventEnvelope => ({
  accountId,
  feedId: 'feed',
  occurredAt: `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`,
  event: {
    id: `evt_${name}`,
    type: 'feed_update',
    feed: {
      id: 'feed',
      title: 'A feed',
      source_url: 'https://example.com/feed.xml',
      rss_feed_url: 'https://feedmill.test/feeds/feed.xml',
      description: '',
      icon: '',
    },
    data: { items_new: [], items_changed: [] },
  },
});
/** What a refresh does: the event is stored, then published. */
const commitAndPublish = async (outbox: EventOutbox, event: FeedEventEnvelope) => {
  await outbox.save(event);
  await env.deps.bus.publish(event);
};

t.test(
  'across the switch from replay to live: an event published during the replay arrives once, and one after it arrives too',
  async (t) => {
    const { outbox } = env.deps;
    await outbox.save(envelope('switch_seen', 1));
    await outbox.save(envelope('switch_missed', 2));
    let reads = 0;
    // The store is read while two more refreshes finish: one before the read (so the replay holds it
    // and the bus brings it again), one after (only the bus brings it).
    const racing: EventOutbox = {
      ...outbox,
      async history(accountId, after, limit) {
        reads += 1;
        if (reads === 1) await commitAndPublish(outbox, envelope('switch_during', 3));
        const page = await outbox.history(accountId, after, limit);
        if (reads === 1) await commitAndPublish(outbox, envelope('switch_after', 4));
        return page;
      },
    };
    const stop = new AbortController();
    const got: string[] = [];
    for await (const event of eventStream(
      { ...env.deps, outbox: racing },
      { accountId: 'acct-switch' },
      { occurredAt: '2026-11-20T10:01:00.000Z', id: 'evt_switch_seen' },
      stop.signal,
    )) {
      got.push(event.event.id);
      if (got.length === 3) setImmediate(() => stop.abort());
    }
    t.same(got, ['evt_switch_missed', 'evt_switch_during', 'evt_switch_after'], 'no gap, no duplicate, in order');
  },
);

t.test('an event published again by the sweep (its dispatch was slow or lost) is told once', async (t) => {
  const { outbox } = env.deps;
  const stop = new AbortController();
  const got: string[] = [];
  const reading = (async () => {
    for await (const event of eventStream(env.deps, { accountId: 'acct-again' }, undefined, stop.signal)) {
      got.push(event.event.id);
      if (got.includes('evt_again_last')) stop.abort();
    }
  })();
  // Let the stream subscribe to the bus before anything is published.
  await new Promise((resolve) => setImmediate(resolve));
  const once = envelope('again_twice', 30, 'acct-again');
  await commitAndPublish(outbox, once);
  await env.deps.bus.publish(once);
  await commitAndPublish(outbox, envelope('again_last', 31, 'acct-again'));
  await reading;
  t.same(got, ['evt_again_twice', 'evt_again_last']);
});

t.test("another account's events never reach the stream, stored or live", async (t) => {
  const { outbox } = env.deps;
  await outbox.save(envelope('mine_1', 10, 'acct-mine'));
  await outbox.save(envelope('theirs_1', 11, 'acct-theirs'));
  const stop = new AbortController();
  const got: string[] = [];
  const stream = eventStream(env.deps, { accountId: 'acct-mine' }, { occurredAt: '2026-01-01T00:00:00.000Z', id: '' }, stop.signal);
  const first = await stream.next();
  got.push(first.value?.event.id ?? '');
  await commitAndPublish(outbox, envelope('theirs_2', 12, 'acct-theirs'));
  await commitAndPublish(outbox, envelope('mine_2', 13, 'acct-mine'));
  got.push((await stream.next()).value?.event.id ?? '');
  stop.abort();
  t.same(got, ['evt_mine_1', 'evt_mine_2']);
  t.equal((await stream.next()).done, true, 'an aborted stream ends');
});
