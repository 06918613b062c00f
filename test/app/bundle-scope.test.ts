import t from 'tap';
import { throughBundles } from '../../src/app/bundle-scope.js';
import { deliveryId } from '../../src/app/deliver-webhook.js';
import { dispatchEvent } from '../../src/app/dispatch-event.js';
import { createWebhook } from '../../src/app/webhooks.js';
import type { FeedEventEnvelope, FeedUpdateEvent } from '../../src/webhook-event/feed-update-event.js';
import { noFilters } from '../../src/domain/keep-block.js';
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

t.test('through bundles, an item passes when one covering bundle keeps it', async (t) => {
  t.same(
    throughBundles(event, [blockSponsored], now)?.data.items_new.map((entry) => entry.title),
    ['Rust news'],
  );
  t.equal(throughBundles(event, [noFilters, blockSponsored], now), event, 'a bundle without filters keeps everything');
  const keepNothing = { keep: { field: 'title' as const, op: 'contains' as const, value: 'zzz' }, block: null };
  t.equal(throughBundles(event, [keepNothing], now), undefined, 'nothing left: nothing to send');
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
