import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import t from 'tap';
import { createRedisBus, createRedisChangeBus } from '../../../src/adapters/redis-bus/index.js';
import type { ChangeNotice } from '../../../src/ports/change-bus.js';
import type { FeedEventEnvelope } from '../../../src/webhook-event/feed-update-event.js';
import { requireRedis } from '../../contract/redis-test-options.js';
import { eventually, sleep } from '../../fixtures/eventually.js';

// Two deployments on one Redis server, on databases of their own, with the channels the buses
// choose by themselves (as compose.ts creates them: no channel given).
const server = await requireRedis();
const onDatabase = (db: number): string => {
  const url = new URL(server);
  url.pathname = `/${db}`;
  return url.toString();
};

/** Waits, polling every 5 ms, for what pub/sub delivers asynchronously. */
const until = (check: () => boolean, what: string): Promise<void> =>
  eventually(
    3000,
    async () => check(),
    () => `waiting for ${what}`,
    5,
  );

const envelopeOf = (accountId: string): FeedEventEnvelope => ({
  accountId,
  feedId: 'feed0000000000001',
  occurredAt: new Date().toISOString(),
  event: {
    id: `evt_${randomBytes(8).toString('hex')}`,
    type: 'feed_update',
    feed: { id: 'feed0000000000001' } as FeedEventEnvelope['event']['feed'],
    data: { items_new: [], items_changed: [] },
  },
});

t.test("an event reaches the buses of its own database, not another deployment's on the same server", async (t) => {
  const onError = (error: unknown): void => void t.fail(String(error));
  const worker = createRedisBus({ url: onDatabase(13), onError });
  const ownApi = createRedisBus({ url: onDatabase(13), onError });
  const otherApi = createRedisBus({ url: onDatabase(14), onError });
  const buses = [worker, ownApi, otherApi];
  t.teardown(() => Promise.all(buses.map((bus) => bus.close())));
  await Promise.all(buses.map((bus) => bus.ready()));
  // The same account id in both deployments: the channel is all that keeps them apart.
  const account = `acct_${randomBytes(4).toString('hex')}`;
  const own: string[] = [];
  const other: string[] = [];
  ownApi.subscribe(account, (envelope) => void own.push(envelope.event.id));
  otherApi.subscribe(account, (envelope) => void other.push(envelope.event.id));
  const sent = envelopeOf(account);
  await worker.publish(sent);
  await until(() => own.length === 1, 'the event on database 13');
  await sleep(150);
  t.same(own, [sent.event.id]);
  t.same(other, [], 'the deployment on database 14 heard nothing');
});

t.test('change notices stay within their database too', async (t) => {
  const writer = createRedisChangeBus({ url: onDatabase(13) });
  const ownReader = createRedisChangeBus({ url: onDatabase(13) });
  const otherReader = createRedisChangeBus({ url: onDatabase(14) });
  const buses = [writer, ownReader, otherReader];
  t.teardown(() => Promise.all(buses.map((bus) => bus.close())));
  await Promise.all(buses.map((bus) => bus.ready()));
  const feed = `feed_${randomBytes(4).toString('hex')}`;
  const naming = (heard: ChangeNotice[]): boolean => heard.some((notice) => notice !== 'everything' && notice.feeds.includes(feed));
  const own: ChangeNotice[] = [];
  const other: ChangeNotice[] = [];
  ownReader.subscribe((notice) => void own.push(notice));
  otherReader.subscribe((notice) => void other.push(notice));
  await writer.publish({ feeds: [feed] });
  await until(() => naming(own), 'the notice on database 13');
  await sleep(150);
  t.notOk(naming(other), 'the deployment on database 14 heard nothing of it');
});

t.test('database 0 keeps the channel every deployment used before, so an upgrade on it changes none', async (t) => {
  const bus = createRedisBus({ url: onDatabase(0) });
  const raw = new Redis(onDatabase(0));
  t.teardown(async () => {
    await bus.close();
    raw.disconnect();
  });
  const heard: string[] = [];
  raw.on(
    'message',
    (channel: string, message: string) => void heard.push(`${channel} ${(JSON.parse(message) as FeedEventEnvelope).event.id}`),
  );
  await raw.subscribe('feedmill:events');
  await bus.ready();
  // An account no listener of a concurrently running test holds: they drop it unread.
  const sent = envelopeOf(`acct_${randomBytes(6).toString('hex')}`);
  await bus.publish(sent);
  await until(() => heard.some((line) => line.endsWith(sent.event.id)), 'the event on feedmill:events');
  t.ok(heard.includes(`feedmill:events ${sent.event.id}`));
});
