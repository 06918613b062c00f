import t from 'tap';
import { passingEvent } from '../../src/app/event-filters.js';
import type { EventScope } from '../../src/app/event-scope.js';
import { deliveryId } from '../../src/app/deliver-webhook.js';
import { dispatchEvent } from '../../src/app/dispatch-event.js';
import { createWebhook } from '../../src/app/webhooks.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../../src/webhook-event/feed-update-event.js';
import { parseFilter, type ItemFilter } from '../../src/domain/item-filter.js';
import { noFilters, type KeepBlock } from '../../src/domain/keep-block.js';
import { createTestDeps } from '../fixtures/test-deps.js';

const item = (title: string) => ({
  url: `https://example.com/${title}`,
  title,
  description_text: '',
  thumbnail: null,
  date_published: '2026-11-25T00:00:00.000Z',
  authors: [],
});
const event: FeedUpdateEvent = {
  id: 'evt_BBBBBBBBBBBBBBBBBBBBBBBB',
  type: 'feed_update',
  feed: {
    id: 'feed-1',
    title: 'A feed',
    source_url: 'https://example.com/feed.xml',
    rss_feed_url: 'https://localhost/feeds/feed-1.xml',
    description: '',
    icon: '',
  },
  data: { items_new: [item('Rust news'), item('Sponsored post')], items_changed: [] },
};
const blockSponsored = { keep: null, block: { field: 'title' as const, op: 'contains' as const, value: 'sponsored' } };
const now = new Date('2026-11-25T12:00:00.000Z');

t.test("one rule: the scope, the covering bundles' filters, then the listener's own filter", async (t) => {
  const env = createTestDeps();
  t.teardown(() => env.close());
  const at = now.toISOString();
  const bundle = async (id: string, feedIds: string[], filters: KeepBlock) =>
    env.deps.bundles.insert({
      id,
      accountId: 'alice',
      name: id,
      description: '',
      icon: '',
      feedIds,
      sort: 'last_added',
      filters,
      createdAt: at,
      updatedAt: at,
    });
  const keepNothing = { keep: { field: 'title' as const, op: 'contains' as const, value: 'zzz' }, block: null };
  const blockAds = { keep: null, block: { field: 'category' as const, op: 'contains' as const, value: 'ads' } };
  await bundle('_AAAAAAAAAAAAAAAA', ['feed-1'], blockSponsored);
  await bundle('_BBBBBBBBBBBBBBBB', ['feed-1'], noFilters);
  await bundle('_CCCCCCCCCCCCCCCC', ['feed-1'], keepNothing);
  await bundle('_DDDDDDDDDDDDDDDD', ['feed-2'], noFilters);
  await bundle('_EEEEEEEEEEEEEEEE', ['feed-1'], blockAds);
  const envelope: FeedEventEnvelope = {
    accountId: 'alice',
    feedId: 'feed-1',
    occurredAt: at,
    event,
    itemKeys: ['k1', 'k2'],
    itemCategories: [['Rust'], ['Ads']],
  };
  const titles = async (scope: EventScope, filter: ItemFilter | null = null) =>
    (await passingEvent(env.deps, scope, envelope, filter))?.data.items_new.map((entry) => entry.title);

  t.equal(await passingEvent(env.deps, { accountId: 'alice' }, envelope), event, 'every feed of the account: the event as it is');
  t.equal(await passingEvent(env.deps, { accountId: 'bob' }, envelope), undefined, "another account's listener gets nothing");
  t.same(
    await titles({ accountId: 'alice', bundleIds: ['_AAAAAAAAAAAAAAAA'] }),
    ['Rust news'],
    'through a bundle, only what its filters keep',
  );
  t.equal(
    await passingEvent(env.deps, { accountId: 'alice', bundleIds: ['_BBBBBBBBBBBBBBBB', '_AAAAAAAAAAAAAAAA'] }, envelope),
    event,
    'a covering bundle without filters keeps everything',
  );
  t.equal(await titles({ accountId: 'alice', bundleIds: ['_CCCCCCCCCCCCCCCC'] }), undefined, 'nothing left: nothing to send');
  t.equal(await titles({ accountId: 'alice', bundleIds: ['_DDDDDDDDDDDDDDDD'] }), undefined, 'no listed bundle holds the feed');
  t.same(
    await titles({ accountId: 'alice', feedIds: ['feed-1'], bundleIds: ['_CCCCCCCCCCCCCCCC'] }),
    ['Rust news', 'Sponsored post'],
    'a listed feed is taken directly, past any bundle',
  );
  t.same(
    await titles({ accountId: 'alice', bundleIds: ['_EEEEEEEEEEEEEEEE'] }),
    ['Rust news'],
    "bundle filters judge the envelope's categories",
  );
  const rust = parseFilter({ field: 'category', op: 'contains', value: 'rust' });
  t.same(await titles({ accountId: 'alice' }, rust), ['Rust news'], "the listener's own filter, on the envelope's categories");
  const sponsored = parseFilter({ field: 'title', op: 'contains', value: 'sponsored' });
  t.equal(
    await titles({ accountId: 'alice', bundleIds: ['_AAAAAAAAAAAAAAAA'] }, sponsored),
    undefined,
    'both must pass: bundle, then filter',
  );
  const old = { ...envelope };
  delete old.itemCategories;
  t.equal(
    await passingEvent(env.deps, { accountId: 'alice' }, old, rust),
    undefined,
    'an envelope without categories: its items have none',
  );
});

t.test("a webhook scoped to a bundle is sent only what the bundle's filters keep", async (t) => {
  const env = createTestDeps();
  t.teardown(() => env.close());
  const principal = { accountId: 'alice', keyId: 'fmk_test', scopes: ['read', 'write'] as ('read' | 'write')[] };
  const at = now.toISOString();
  await env.deps.bundles.insert({
    id: '_AAAAAAAAAAAAAAAA',
    accountId: 'alice',
    name: 'B',
    description: '',
    icon: '',
    feedIds: ['feed-1'],
    sort: 'last_added',
    filters: blockSponsored,
    createdAt: at,
    updatedAt: at,
  });
  const { webhook: scopedHook } = await createWebhook(env.deps, principal, {
    url: 'https://example.com/hook',
    bundles: ['_AAAAAAAAAAAAAAAA'],
  });
  const { webhook: allHook } = await createWebhook(env.deps, principal, { url: 'https://example.com/all' });
  const envelope: FeedEventEnvelope = { accountId: 'alice', feedId: 'feed-1', occurredAt: at, event, itemKeys: ['k1', 'k2'] };
  t.equal(await dispatchEvent(env.deps, envelope), 2);
  const sent = async (hookId: string) =>
    (JSON.parse((await env.deps.deliveries.get(deliveryId(hookId, event.id)))?.body ?? '{}') as FeedUpdateEvent).data.items_new.map(
      (entry) => entry.title,
    );
  t.same(await sent(scopedHook.id), ['Rust news'], 'the bundle-scoped webhook does not get the blocked item');
  t.same(await sent(allHook.id), ['Rust news', 'Sponsored post'], 'a webhook for every feed gets the feed as it is');
});
