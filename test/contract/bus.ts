import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import type { EventBus } from '../../src/ports/event-bus.js';
import { sliceSize } from '../../src/ports/account-listeners.js';

/**
 * Two views of one bus: `publisher` is where a worker publishes, `listener` where another process
 * (an API replica) listens. For the in-process bus both are the same instance; for Redis they are
 * two instances, as two processes would hold. Closing both also removes whatever they stored.
 */
export interface BusPair {
  publisher: EventBus;
  listener: EventBus;
  close(): Promise<void>;
}

/** Makes a fresh pair, subscribed and ready; `onError` is given to both buses. */
export type MakeBusPair = (onError: (error: unknown) => void) => Promise<BusPair>;

let sequence = 0;
const account = 'acct_1';
function envelope(feedId = 'feed0000000000001', accountId = account): FeedEventEnvelope {
  sequence += 1;
  return {
    accountId,
    feedId,
    occurredAt: new Date(Date.UTC(2024, 4, 1, 12, 0, sequence)).toISOString(),
    event: {
      id: `evt_${String(sequence).padStart(24, '0')}`,
      type: 'feed_update',
      feed: { id: feedId } as FeedEventEnvelope['event']['feed'],
      data: { items_new: [], items_changed: [] },
    },
  };
}

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

/** Delivery may be asynchronous (pub/sub): "nothing arrives" is checked after this long. */
const quietMs = 150;

/** The event bus conformance suite (STYLE.md habit 4), for the in-process bus and Redis alike. */
export function busContract(t: Test, name: string, make: MakeBusPair): void {
  const setup = async (t: Test): Promise<BusPair & { errors: unknown[] }> => {
    const errors: unknown[] = [];
    const pair = await make((error) => errors.push(error));
    t.teardown(() => pair.close());
    return { ...pair, errors };
  };

  t.test(`${name}: a published event reaches every subscriber, as it was sent`, async (t) => {
    const { publisher, listener } = await setup(t);
    const first: FeedEventEnvelope[] = [];
    const second: FeedEventEnvelope[] = [];
    listener.subscribe(account, (event) => void first.push(event));
    listener.subscribe(account, async (event) => void second.push(event));
    const sent = envelope();
    await publisher.publish(sent);
    await until(() => first.length === 1 && second.length === 1, 'both subscribers');
    t.same(first, [sent]);
    t.same(second, [sent]);
  });

  t.test(`${name}: a listener hears only the events of the account it listens to`, async (t) => {
    const { publisher, listener } = await setup(t);
    const mine: string[] = [];
    const theirs: string[] = [];
    listener.subscribe(account, (event) => void mine.push(event.event.id));
    listener.subscribe('acct_2', (event) => void theirs.push(event.event.id));
    const forMine = envelope();
    const forTheirs = envelope('feed0000000000002', 'acct_2');
    const forNobody = envelope('feed0000000000003', 'acct_3');
    for (const event of [forMine, forTheirs, forNobody]) await publisher.publish(event);
    await until(() => mine.length === 1 && theirs.length === 1, 'one event each');
    await sleep(quietMs);
    t.same(mine, [forMine.event.id]);
    t.same(theirs, [forTheirs.event.id]);
  });

  t.test(`${name}: a listener removed while an event is delivered does not hear it; one added waits for the next`, async (t) => {
    const { publisher, listener } = await setup(t);
    const heard: string[] = [];
    let stopSecond = (): void => undefined;
    listener.subscribe(account, (event) => {
      heard.push(`first ${event.event.id}`);
      stopSecond();
      listener.subscribe(account, (later) => void heard.push(`added ${later.event.id}`));
    });
    stopSecond = listener.subscribe(account, (event) => void heard.push(`second ${event.event.id}`));
    const sent = envelope();
    await publisher.publish(sent);
    await until(() => heard.length === 1, 'the event');
    await sleep(quietMs);
    t.same(heard, [`first ${sent.event.id}`]);
    t.equal(listener.listenerCount, 2, 'the first and the one it added');
  });

  t.test(`${name}: an account with many listeners: each hears every event once, in order`, async (t) => {
    const { publisher, listener } = await setup(t);
    const many = sliceSize * 2 + 50;
    const heard = Array.from({ length: many }, () => [] as string[]);
    for (const [index, events] of heard.entries()) listener.subscribe(account, (event) => void events.push(`${index} ${event.event.id}`));
    const sent = [envelope(), envelope(), envelope()];
    await Promise.all(sent.map((event) => publisher.publish(event)));
    await until(() => heard.every((events) => events.length === sent.length), 'every listener to hear three events');
    await sleep(quietMs);
    t.same(
      heard,
      heard.map((_, index) => sent.map((event) => `${index} ${event.event.id}`)),
    );
  });

  t.test(`${name}: another account's event is not held until a large fan-out ends`, async (t) => {
    const { publisher, listener } = await setup(t);
    const many = sliceSize * 10;
    let reached = 0;
    // Each listener of the large account takes a little CPU, as waking a subscriber does.
    for (let n = 0; n < many; n += 1)
      listener.subscribe(account, () => {
        const done = performance.now() + 0.3;
        while (performance.now() < done);
        reached += 1;
      });
    let reachedWhenOtherHeard: number | undefined;
    listener.subscribe('acct_2', () => void (reachedWhenOtherHeard ??= reached));
    await Promise.all([publisher.publish(envelope()), publisher.publish(envelope('feed0000000000002', 'acct_2'))]);
    await until(() => reached === many && reachedWhenOtherHeard !== undefined, 'both deliveries', 10_000);
    t.ok(
      (reachedWhenOtherHeard ?? many) < many,
      `the other account heard its event after ${reachedWhenOtherHeard} of the ${many} listeners of the first`,
    );
  });

  t.test(`${name}: events arrive in the order they were published`, async (t) => {
    const { publisher, listener } = await setup(t);
    const seen: string[] = [];
    listener.subscribe(account, (event) => void seen.push(event.event.id));
    const sent = [envelope(), envelope(), envelope()];
    for (const event of sent) await publisher.publish(event);
    await until(() => seen.length === 3, 'three events');
    t.same(
      seen,
      sent.map((event) => event.event.id),
    );
  });

  t.test(`${name}: the publishing process hears its own events too`, async (t) => {
    const { publisher } = await setup(t);
    const seen: FeedEventEnvelope[] = [];
    publisher.subscribe(account, (event) => void seen.push(event));
    await publisher.publish(envelope());
    await until(() => seen.length === 1, 'the event');
    t.equal(seen.length, 1);
  });

  t.test(`${name}: after unsubscribing a listener hears nothing more`, async (t) => {
    const { publisher, listener } = await setup(t);
    const gone: FeedEventEnvelope[] = [];
    const staying: FeedEventEnvelope[] = [];
    const unsubscribe = listener.subscribe(account, (event) => void gone.push(event));
    listener.subscribe(account, (event) => void staying.push(event));
    await publisher.publish(envelope());
    await until(() => gone.length === 1 && staying.length === 1, 'the first event');
    unsubscribe();
    await publisher.publish(envelope());
    await until(() => staying.length === 2, 'the second event');
    await sleep(quietMs);
    t.equal(gone.length, 1, 'the unsubscribed listener missed the second event');
  });

  t.test(`${name}: a listener that throws or rejects is reported and the others still hear the event`, async (t) => {
    const { publisher, listener, errors } = await setup(t);
    const heard: FeedEventEnvelope[] = [];
    const thrown = new Error('listener broke');
    const rejected = new Error('listener rejected');
    listener.subscribe(account, () => {
      throw thrown;
    });
    listener.subscribe(account, async () => {
      throw rejected;
    });
    listener.subscribe(account, (event) => void heard.push(event));
    await publisher.publish(envelope());
    await until(() => heard.length === 1 && errors.length === 2, 'the event and two reports');
    t.same(new Set(errors), new Set([thrown, rejected]));
  });

  t.test(`${name}: listenerCount counts this process's listeners`, async (t) => {
    const { listener } = await setup(t);
    t.equal(listener.listenerCount, 0);
    const first = listener.subscribe(account, () => undefined);
    const second = listener.subscribe(account, () => undefined);
    t.equal(listener.listenerCount, 2);
    first();
    t.equal(listener.listenerCount, 1);
    first();
    t.equal(listener.listenerCount, 1, 'unsubscribing twice removes one listener');
    second();
    t.equal(listener.listenerCount, 0);
    const other = listener.subscribe('acct_2', () => undefined);
    listener.subscribe(account, () => undefined);
    t.equal(listener.listenerCount, 2, 'listeners of every account count');
    await listener.close();
    other();
    t.equal(listener.listenerCount, 0, 'a stop function called after close removes nothing more');
  });

  t.test(`${name}: a closed bus delivers nothing more to its listeners`, async (t) => {
    const { publisher, listener } = await setup(t);
    const heard: FeedEventEnvelope[] = [];
    listener.subscribe(account, (event) => void heard.push(event));
    await listener.close();
    t.equal(listener.listenerCount, 0);
    await publisher.publish(envelope()).catch(() => undefined);
    await sleep(quietMs);
    t.same(heard, []);
    await listener.close();
    t.pass('closing twice is harmless');
  });
}
