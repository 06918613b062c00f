import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { Check, Errors } from 'typebox/value';
import { WebhookEvent } from '../../src/http/schemas/webhook-event.js';
import { repoRoot } from '../fixtures/repo-root.js';
import { createFeed } from '../../src/app/create-feed.js';
import { publishPendingEvents, recordFeedEvent } from '../../src/app/feed-events.js';
import { refreshFeed } from '../../src/app/refresh-feed.js';
import type { FeedEventEnvelope } from '../../src/domain/feed-event.js';
import { diffItems } from '../../src/domain/item-diff.js';
import { startRssSource } from '../fixtures/rss-source.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const principal = { accountId: 'alice', keyId: 'fmk_test', scopes: ['read', 'write'] as const };

async function setup(t: Test) {
  const env = createTestDeps();
  const source = await startRssSource(2);
  t.teardown(async () => {
    await source.close();
    await env.close();
  });
  const feed = await createFeed(env.deps, { ...principal, scopes: [...principal.scopes] }, { url: source.url });
  const events: FeedEventEnvelope[] = [];
  env.deps.bus.subscribe((envelope) => {
    events.push(envelope);
  });
  return { env, source, feed, events };
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
  t.same(event.feed, { id: feed.id, title: feed.title, source_url: feed.source_url, rss_feed_url: feed.rss_feed_url, description: feed.description, icon: feed.icon });
  t.same(event.data.items_new, [
    { url: added.link, title: 'Breaking', description_text: 'Post 3', thumbnail: null, date_published: new Date(added.pubDate).toISOString(), authors: [] },
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

t.test('an event recorded but not published (a crash) goes out at the next start, with the same id', async (t) => {
  const { env, source, feed, events } = await setup(t);
  source.addItem('Survives a crash');
  const stored = await env.deps.feeds.getById(feed.id);
  if (!stored) throw new Error('feed missing');
  const parsed = await env.deps.parser.parse(
    new Uint8Array(await (await fetch(source.url)).arrayBuffer()),
    { url: source.url },
  );
  const diff = diffItems(feed.id, parsed.items, await env.deps.items.known(feed.id), new Date().toISOString());
  const recorded = await recordFeedEvent(env.deps, stored, diff, new Date());
  t.equal(events.length, 0, 'the process "died" before publishing');
  // The retried refresh finds the same change and names it with the same id.
  const again = await recordFeedEvent(env.deps, stored, diff, new Date());
  t.equal(again?.event.id, recorded?.event.id);
  t.equal(await publishPendingEvents(env.deps), 1, 'one event, not two');
  t.equal(events[0]?.event.id, recorded?.event.id);
  t.equal(await publishPendingEvents(env.deps), 0, 'published once');
});

t.test('a refresh after a crash publishes the event left behind, and announces only what it did not cover', async (t) => {
  const { env, source, feed, events } = await setup(t);
  const stored = await env.deps.feeds.getById(feed.id);
  if (!stored) throw new Error('feed missing');
  // The crashed refresh: it saw "Before the crash", recorded its event, and died before storing it.
  source.addItem('Before the crash');
  const parsed = await env.deps.parser.parse(new Uint8Array(await (await fetch(source.url)).arrayBuffer()), { url: source.url });
  const diff = diffItems(feed.id, parsed.items, await env.deps.items.known(feed.id), new Date().toISOString());
  const left = await recordFeedEvent(env.deps, stored, diff, new Date());
  // Another worker refreshes later, when the source has grown again.
  source.addItem('After the crash');
  await refreshFeed(env.deps, feed.id);
  t.same(
    events.map((envelope) => [envelope.event.id, envelope.event.data.items_new.map((item) => item.title)]),
    [
      [left?.event.id, ['Before the crash']],
      [events[1]?.event.id, ['After the crash']],
    ],
    'the old event as it was, then a new one with only the newer item',
  );
  t.not(events[1]?.event.id, left?.event.id);
  t.same((await env.deps.outbox.unpublishedOf(feed.id)).length, 0, 'nothing is left waiting');
  const titles = [...(await env.deps.items.known(feed.id)).keys()].length;
  t.equal(titles, 4, 'both items are stored, with the first two');
});

t.test('the timed sweep sends only events older than its cut-off, oldest first', async (t) => {
  const { env, source, feed, events } = await setup(t);
  const stored = await env.deps.feeds.getById(feed.id);
  if (!stored) throw new Error('feed missing');
  const record = async (title: string, at: Date): Promise<string | undefined> => {
    source.addItem(title);
    const parsed = await env.deps.parser.parse(new Uint8Array(await (await fetch(source.url)).arrayBuffer()), { url: source.url });
    const diff = diffItems(feed.id, parsed.items, await env.deps.items.known(feed.id), at.toISOString());
    await env.deps.items.upsert(diff.fresh);
    return (await recordFeedEvent(env.deps, stored, diff, at))?.event.id;
  };
  const now = Date.now();
  const old = await record('Left behind by a dead worker', new Date(now - 120_000));
  const young = await record('Being published right now', new Date(now - 1_000));
  t.equal(await publishPendingEvents(env.deps, new Date(now - 60_000)), 1, 'only the old event');
  t.same(events.map((envelope) => envelope.event.id), [old]);
  t.equal(await publishPendingEvents(env.deps), 1, 'the young one waits for its own process, or the next start');
  t.same(events.map((envelope) => envelope.event.id), [old, young]);
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

t.test('a refresh that lost its job to another worker stores and announces nothing, and says why', async (t) => {
  const { env, source, feed, events } = await setup(t);
  source.addItem('Seen by two workers');
  let asked = 0;
  const lost = async (): Promise<boolean> => {
    asked += 1;
    return false;
  };
  await t.rejects(refreshFeed(env.deps, feed.id, lost), /another worker holds the job now/);
  t.equal(asked, 1, 'the hold was checked once, before writing');
  t.equal(events.length, 0, 'nothing was published');
  t.same(await env.deps.outbox.unpublished(10), [], 'nothing was recorded for later');
  t.equal((await env.deps.items.known(feed.id)).size, 2, 'the new item was not stored');

  const outcome = await refreshFeed(env.deps, feed.id, async () => true);
  t.equal(outcome?.fresh.length, 1, 'the worker that holds the job stores the item');
  t.equal(events.length, 1, 'and announces it once');
});

t.test('a refresh with nothing new does not ask whether it still holds the job', async (t) => {
  const { env, feed } = await setup(t);
  let asked = 0;
  const outcome = await refreshFeed(env.deps, feed.id, async () => {
    asked += 1;
    return false;
  });
  t.not(outcome?.status, 'failed');
  t.same([outcome?.fresh, outcome?.changed], [[], []], 'nothing new');
  t.equal(asked, 0, 'no Redis round trip for a refresh that writes no item');
});
