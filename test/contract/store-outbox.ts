import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import type { EventOutbox } from '../../src/ports/event-outbox.js';
import type { ContractContext, ContractTest } from './store.js';

const envelopeOf = ({ ns }: ContractContext, name: string, occurredAt: string, title = 'Post', account = 'acct'): FeedEventEnvelope => ({
  accountId: ns(account),
  feedId: ns('feed'),
  occurredAt,
  event: {
    id: ns(`evt_${name}`),
    type: 'feed_update',
    feed: {
      id: ns('feed'),
      title: 'A feed',
      source_url: 'https://example.com/feed.xml',
      rss_feed_url: 'https://feedmill.test/feeds/f.xml',
      description: '',
      icon: '',
    },
    data: {
      items_new: [
        {
          url: 'https://example.com/1',
          title,
          description_text: 'Body',
          thumbnail: null,
          date_published: occurredAt,
          authors: [{ name: 'Ada' }],
        },
      ],
      items_changed: [],
    },
  },
});

/** The unpublished events of this test: the outbox is shared by every test of the suite. */
const ours = async (outbox: EventOutbox, { ns }: ContractContext, limit = 1_000): Promise<FeedEventEnvelope[]> =>
  (await outbox.unpublished(limit)).filter((envelope) => envelope.event.id.startsWith(ns('')));

const ids = (envelopes: FeedEventEnvelope[]): string[] => envelopes.map((envelope) => envelope.event.id);

export function eventOutboxContract(test: ContractTest): void {
  test('saved events wait unpublished, whole, oldest first', async (t, ctx) => {
    const { outbox } = ctx.store;
    const late = envelopeOf(ctx, 'late', '2024-03-03T08:00:00.000Z');
    const early = envelopeOf(ctx, 'early', '2024-03-01T08:00:00.000Z');
    const middle = envelopeOf(ctx, 'middle', '2024-03-01T09:30:00.000Z');
    for (const envelope of [late, early, middle]) await outbox.save(envelope);
    t.same(await ours(outbox, ctx), [early, middle, late]);
  });

  test('events of the same moment wait in id order', async (t, ctx) => {
    const { outbox } = ctx.store;
    for (const name of ['b', 'c', 'a']) await outbox.save(envelopeOf(ctx, name, '2024-03-02T00:00:00.000Z'));
    t.same(
      ids(await ours(outbox, ctx)),
      ['a', 'b', 'c'].map((name) => ctx.ns(`evt_${name}`)),
    );
  });

  test('the limit hands out the oldest events first', async (t, ctx) => {
    const { outbox } = ctx.store;
    // Older than every other test's events, so they lead the shared outbox.
    const names = ['d', 'b', 'a', 'c'];
    for (const [i, name] of names.entries()) await outbox.save(envelopeOf(ctx, name, `1990-01-0${i + 1}T00:00:00.000Z`));
    t.same(
      ids(await outbox.unpublished(2)),
      ['d', 'b'].map((name) => ctx.ns(`evt_${name}`)),
    );
    for (const name of names) await outbox.markPublished(ctx.ns(`evt_${name}`), '2024-03-01T00:00:00.000Z');
  });

  test('a published event is not handed out again, even when saved again', async (t, ctx) => {
    const { outbox } = ctx.store;
    const first = envelopeOf(ctx, 'first', '2024-03-01T00:00:00.000Z');
    const second = envelopeOf(ctx, 'second', '2024-03-01T00:01:00.000Z');
    await outbox.save(first);
    await outbox.save(second);
    await outbox.markPublished(first.event.id, '2024-03-01T00:00:05.000Z');
    t.same(await ours(outbox, ctx), [second]);
    await outbox.save(first);
    t.same(await ours(outbox, ctx), [second], 'a retried refresh saving it again does not queue it');
    await outbox.markPublished(first.event.id, '2024-03-01T00:00:09.000Z');
    t.same(await ours(outbox, ctx), [second], 'marking it again changes nothing');
    await outbox.markPublished(second.event.id, '2024-03-01T00:01:05.000Z');
    t.same(await ours(outbox, ctx), []);
  });

  test('saving an event twice keeps the first version, once, in its first place', async (t, ctx) => {
    const { outbox } = ctx.store;
    const first = envelopeOf(ctx, 'e', '2024-03-01T00:00:00.000Z', 'First title');
    const between = envelopeOf(ctx, 'between', '2024-03-03T00:00:00.000Z');
    await outbox.save(first);
    await outbox.save(between);
    await outbox.save(envelopeOf(ctx, 'e', '2024-03-05T00:00:00.000Z', 'Second title'));
    t.same(await ours(outbox, ctx), [first, between]);
  });

  test('marking an unknown event published does not stop it from being saved and sent later', async (t, ctx) => {
    const { outbox } = ctx.store;
    const envelope = envelopeOf(ctx, 'unknown', '2024-03-01T00:00:00.000Z');
    await outbox.markPublished(envelope.event.id, '2024-03-01T00:00:00.000Z');
    t.same(await ours(outbox, ctx), []);
    await outbox.save(envelope);
    t.same(await ours(outbox, ctx), [envelope]);
  });

  test("an account's history: its events after a position, published or not, in (time, id) order, in pages", async (t, ctx) => {
    const { outbox } = ctx.store;
    const at = (day: number) => `2024-04-0${day}T00:00:00.000Z`;
    const events = [
      envelopeOf(ctx, 'h1', at(1)),
      envelopeOf(ctx, 'h2a', at(2)),
      envelopeOf(ctx, 'h2b', at(2)),
      envelopeOf(ctx, 'h3', at(3)),
    ];
    for (const envelope of [...events].reverse()) await outbox.save(envelope);
    await outbox.save(envelopeOf(ctx, 'other', at(2), 'Post', 'another account'));
    await outbox.markPublished(ctx.ns('evt_h1'), at(4));
    const account = ctx.ns('acct');
    t.same(
      await outbox.history(account, { occurredAt: '2024-01-01T00:00:00.000Z', id: '' }, 100),
      events,
      'from the start: all four, oldest first, ties by id',
    );
    t.same(
      ids(await outbox.history(account, { occurredAt: at(2), id: ctx.ns('evt_h2a') }, 100)),
      [ctx.ns('evt_h2b'), ctx.ns('evt_h3')],
      'strictly after a given event',
    );
    t.same(
      ids(await outbox.history(account, { occurredAt: at(1), id: ctx.ns('evt_h1') }, 2)),
      [ctx.ns('evt_h2a'), ctx.ns('evt_h2b')],
      'at most `limit`',
    );
    t.same(await outbox.history(account, { occurredAt: at(3), id: ctx.ns('evt_h3') }, 100), [], 'nothing after the last');
    await outbox.save(envelopeOf(ctx, 'h1', at(4), 'A later save'));
    t.same(
      ids(await outbox.history(account, { occurredAt: '2024-01-01T00:00:00.000Z', id: '' }, 100)),
      ids(events),
      'a second save keeps the first place',
    );
  });
}
