import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { Check, Errors } from 'typebox/value';
import { WebhookEvent } from '../../src/http/schemas/webhook-event.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { createFeed } from '../../src/app/create-feed.js';
import { hostedFeedUrl } from '../../src/domain/hosted-urls.js';
import { feedEvent, publishFeedEvent, publishPendingEvents } from '../../src/app/feed-events.js';
import { dispatchEventHandler } from '../../src/jobs/dispatch-event.js';
import { eventually } from '../fixtures/eventually.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import type { Feed } from '../../src/domain/feed.js';
import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import type { ItemStore } from '../../src/ports/item-store.js';
import { diffItems } from '../../src/domain/item-diff.js';
import { startRssSource, type RssSource } from '../fixtures/rss-source.js';
import { createTestDeps, type TestDeps } from '../fixtures/test-deps.js';

const principal = { accountId: 'alice', keyId: 'fmk_test', scopes: ['read', 'write'] as const };

async function setup(t: Test) {
  const env = createTestDeps();
  const source = await startRssSource(2);
  t.teardown(async () => {
    await source.close();
    await env.close();
  });
  const { feed } = await createFeed(env.deps, { ...principal, scopes: [...principal.scopes] }, { url: source.url });
  const events: FeedEventEnvelope[] = [];
  env.deps.bus.subscribe(principal.accountId, (envelope) => {
    events.push(envelope);
  });
  // As a worker runs it: the dispatch job stores the deliveries and marks the event published.
  await env.deps.deliveryScheduler.start(dispatchEventHandler(env.deps));
  return { env, source, feed, events };
}

/** Waits for the dispatch jobs scheduled so far to mark their events published. */
async function dispatched(env: TestDeps): Promise<void> {
  await eventually(
    10_000,
    async () => (await env.deps.outbox.unpublished(10)).length === 0,
    () => 'events still waiting for their dispatch job',
    20,
  );
}

t.test('creating a feed announces nothing: its first items are the baseline', async (t) => {
  const { events } = await setup(t);
  t.same(events, []);
});

t.test('a refresh that finds a new item publishes one feed_update in the spec shape', async (t) => {
  const { env, source, feed, events } = await setup(t);
  const added = source.addItem('Breaking');
  const outcome = await refreshFeed(env.deps, feed.id);
  t.equal(outcome?.status, 'changed');
  t.equal(events.length, 1);
  const { event, accountId, feedId } = events[0]!;
  t.same([accountId, feedId], ['alice', feed.id], 'routed by account and feed');
  t.match(event.id, /^evt_[A-Za-z0-9_-]{24}$/);
  t.equal(event.type, 'feed_update');
  t.same(event.feed, {
    id: feed.id,
    title: feed.title,
    source_url: feed.sourceUrl,
    rss_feed_url: hostedFeedUrl(env.deps.settings.publicUrl, feed.id),
    description: feed.description,
    icon: feed.icon,
  });
  t.same(event.data.items_new, [
    {
      url: added.link,
      title: 'Breaking',
      description_text: 'Post 3',
      thumbnail: null,
      date_published: new Date(added.pubDate).toISOString(),
      authors: [],
    },
  ]);
  t.same(event.data.items_changed, []);
  await refreshFeed(env.deps, feed.id);
  t.equal(events.length, 1, 'an unchanged source publishes nothing');
});

t.test('a changed item is announced with the fields that changed', async (t) => {
  const { env, source, feed, events } = await setup(t);
  source.retitle(1, 'Post 1 (corrected)');
  await refreshFeed(env.deps, feed.id);
  t.equal(events.length, 1);
  t.same(events[0]?.event.data.items_new, []);
  t.equal(events[0]?.event.data.items_changed.length, 1);
  t.match(events[0]?.event.data.items_changed[0], { title: 'Post 1 (corrected)', changed_fields: ['title'] });
});

/** What a refresh sees of the source now: its diff against the stored items, and the version read. */
async function diffNow(env: TestDeps, source: RssSource, feedId: string, at: Date) {
  const parsed = await env.deps.parser.parse(new Uint8Array(await (await fetch(source.url)).arrayBuffer()), { url: source.url });
  const snapshot = await env.deps.items.known(feedId);
  return { snapshot, diff: diffItems(feedId, parsed.items, snapshot.items, at.toISOString()) };
}

/** A refresh that committed its items and event, then died before publishing. */
async function commitWithoutPublishing(env: TestDeps, source: RssSource, feed: Feed, at: Date): Promise<string | undefined> {
  const { snapshot, diff } = await diffNow(env, source, feed.id, at);
  const event = await feedEvent(env.deps, feed, diff, at);
  await env.deps.items.commit(feed.id, snapshot.version, [...diff.fresh, ...diff.changed], event);
  return event?.event.id;
}

t.test('an event committed but not published (a crash) goes out at the next start, once, and is not announced again', async (t) => {
  const { env, source, feed, events } = await setup(t);
  source.addItem('Survives a crash');
  const stored = await env.deps.feeds.getById(feed.id);
  if (!stored) throw new Error('feed missing');
  const id = await commitWithoutPublishing(env, source, stored, new Date());
  t.equal(events.length, 0, 'the process "died" before publishing');
  t.equal(await publishPendingEvents(env.deps), 1, 'one event, not two');
  t.equal(events[0]?.event.id, id);
  await dispatched(env);
  t.equal(await publishPendingEvents(env.deps), 0, 'published once');
  t.equal((await refreshFeed(env.deps, feed.id))?.status, 'unchanged', 'the next refresh finds its items stored');
  t.equal(events.length, 1, 'and announces nothing again');
});

t.test('an event whose dispatch job was lost (Redis back without its data) stays for the sweep, which dispatches it', async (t) => {
  const { env, source, feed, events } = await setup(t);
  source.addItem('Announced, then its job lost');
  const stored = await env.deps.feeds.getById(feed.id);
  if (!stored) throw new Error('feed missing');
  const at = new Date();
  const { snapshot, diff } = await diffNow(env, source, feed.id, at);
  const event = await feedEvent(env.deps, stored, diff, at);
  if (!event) throw new Error('no event');
  await env.deps.items.commit(feed.id, snapshot.version, diff.fresh, event);
  // Published as a refresh does, into a queue that then loses the job before any worker runs it.
  await publishFeedEvent({ ...env.deps, deliveryScheduler: { ...env.deps.deliveryScheduler, schedule: async () => undefined } }, event);
  t.equal(events.length, 1, 'live subscribers were told at once');
  t.same(
    (await env.deps.outbox.unpublished(10)).map((envelope) => envelope.event.id),
    [event.event.id],
    'not published: its deliveries were never made',
  );
  t.equal(await publishPendingEvents(env.deps), 1, 'the sweep sends it again');
  await dispatched(env);
  t.equal(await publishPendingEvents(env.deps), 0, 'and once dispatched, never again');
});

t.test('the timed sweep sends only events older than its cut-off, oldest first', async (t) => {
  const { env, source, feed, events } = await setup(t);
  const stored = await env.deps.feeds.getById(feed.id);
  if (!stored) throw new Error('feed missing');
  const record = async (title: string, at: Date): Promise<string | undefined> => {
    source.addItem(title);
    return commitWithoutPublishing(env, source, stored, at);
  };
  const now = Date.now();
  const old = await record('Left behind by a dead worker', new Date(now - 120_000));
  const young = await record('Being published right now', new Date(now - 1_000));
  t.equal(await publishPendingEvents(env.deps, new Date(now - 60_000)), 1, 'only the old event');
  t.same(
    events.map((envelope) => envelope.event.id),
    [old],
  );
  await eventually(
    10_000,
    async () => (await env.deps.outbox.unpublished(10)).length === 1,
    () => 'the old event was not dispatched',
    20,
  );
  t.equal(await publishPendingEvents(env.deps), 1, 'the young one waits for its own process, or the next start');
  t.same(
    events.map((envelope) => envelope.event.id),
    [old, young],
  );
});

t.test('two refreshes of one feed, the first stalled past its lock between its diff and its write: one announcement', async (t) => {
  const { env, source, feed, events } = await setup(t);
  // The first refresh reads the stored items, diffs, and stalls right before it writes — as a
  // worker starved of CPU past its job lock does while another worker takes the job over.
  let release = (): void => undefined;
  const stalled = new Promise<void>((resolve) => (release = resolve));
  let reachedWrite = (): void => undefined;
  const atWrite = new Promise<void>((resolve) => (reachedWrite = resolve));
  const items: ItemStore = {
    ...env.deps.items,
    commit: async (...args) => {
      reachedWrite();
      await stalled;
      return env.deps.items.commit(...args);
    },
  };
  source.addItem('Seen by two workers');
  const first = refreshFeed({ ...env.deps, items }, feed.id);
  await atWrite;
  // The second refresh runs the whole way while the first stalls, and the source grows meanwhile.
  source.addItem('Seen by the second only');
  const second = await refreshFeed(env.deps, feed.id);
  t.equal(second?.status, 'changed');
  release();
  const late = await first;
  t.equal(late?.status, 'superseded', 'the stalled refresh learns from the store that it was overtaken');
  t.same(
    events.map((envelope) => envelope.event.data.items_new.map((item) => item.title)),
    [['Seen by the second only', 'Seen by two workers']],
    'one event announces each item once',
  );
  await dispatched(env);
  t.same(await env.deps.outbox.unpublished(10), [], 'nothing was left for the sweep to send again');
  t.equal(late?.nextRunAt?.toISOString(), second?.nextRunAt?.toISOString(), 'the overtaken refresh keeps the plan of the one that won');
  t.equal((await env.deps.items.known(feed.id)).items.size, 4, 'the first two items and both new ones are stored once');
});

t.test('every published event matches the checked-in schema/json/webhook-event.json', async (t) => {
  const { env, source, feed, events } = await setup(t);
  source.addItem('Schema-checked');
  source.retitle(1, 'Post 1 (edited)');
  await refreshFeed(env.deps, feed.id);
  const event = events[0]?.event;
  t.ok(event, 'an event was published');
  t.ok(Check(WebhookEvent, event), JSON.stringify([...Errors(WebhookEvent, event)].slice(0, 3)));
  const published = JSON.parse(readFileSync(join(repoRoot, 'schema', 'json', 'webhook-event.json'), 'utf8')) as unknown;
  t.same(published, JSON.parse(JSON.stringify(WebhookEvent)), 'run `npm run schema` after changing the event');
  t.notOk(Check(WebhookEvent, { ...event, type: 'other' }), 'the schema rejects what the spec does not allow');
});
