import type { Test } from 'tap';
import type { Bundle } from '../../src/domain/bundle.js';
import type { BundleStore } from '../../src/ports/bundle-store.js';
import type { ContractContext, ContractTest } from './store.js';

const at = (day: number): string => new Date(Date.UTC(2024, 2, day)).toISOString();
const page = (limit: number, offset: number) => ({ limit, offset });

const bundleOf = ({ ns }: ContractContext, fields: Partial<Bundle> = {}): Bundle => ({
  id: ns('_bundle'),
  accountId: ns('acct-1'),
  name: 'Morning reads',
  description: 'Everything before coffee',
  icon: 'https://example.com/b.png',
  feedIds: [ns('feed-a'), ns('feed-b')],
  sort: 'last_added',
  filters: { keep: null, block: null },
  createdAt: at(1),
  updatedAt: at(1),
  ...fields,
});

/** Bundle assertions run only for adapters that provide a bundle store. */
const bundleTest = (test: ContractTest, name: string, body: (t: Test, bundles: BundleStore, ctx: ContractContext) => Promise<void>): void =>
  test(name, async (t, ctx) => {
    if (!ctx.store.bundles) {
      t.pass('this adapter has no bundle store yet');
      return;
    }
    await body(t, ctx.store.bundles, ctx);
  });

export function bundleStoreContract(test: ContractTest): void {
  bundleTest(test, 'keep/block filters are stored with the bundle and changed by update, other fields kept', async (t, bundles, ctx) => {
    const filters = { keep: null, block: { field: 'title' as const, op: 'contains' as const, value: 'sponsored' } };
    const bundle = bundleOf(ctx, { id: ctx.ns('_filtered'), filters });
    await bundles.insert(bundle);
    t.same((await bundles.getById(bundle.id))?.filters, filters, 'as inserted');
    const keep = { keep: { field: 'category' as const, op: 'contains' as const, value: 'rust' }, block: null };
    const updated = await bundles.update(bundle.accountId, bundle.id, { filters: keep }, at(2));
    t.same(updated?.filters, keep);
    t.equal(updated?.name, bundle.name, 'the name is left as it was');
    const renamed = await bundles.update(bundle.accountId, bundle.id, { name: 'Renamed' }, at(3));
    t.same(renamed?.filters, keep, 'an update without filters leaves them');
  });

  bundleTest(test, 'a stored bundle reads back with its feeds in the order given', async (t, bundles, ctx) => {
    const bundle = bundleOf(ctx, { sort: 'date', feedIds: ['z', 'a', 'm'].map(ctx.ns) });
    await bundles.insert(bundle);
    t.same(await bundles.get(bundle.accountId, bundle.id), { state: 'present', bundle });
    t.same(await bundles.getById(bundle.id), bundle);
    const empty = bundleOf(ctx, { id: ctx.ns('_empty'), feedIds: [] });
    await bundles.insert(empty);
    t.same(await bundles.getById(empty.id), empty, 'a bundle may start empty');
  });

  bundleTest(test, "a bundle that never existed, or another account's, is missing", async (t, bundles, ctx) => {
    const bundle = bundleOf(ctx);
    const other = ctx.ns('acct-2');
    await bundles.insert(bundle);
    t.same(await bundles.get(bundle.accountId, ctx.ns('_nope')), { state: 'missing' });
    t.equal(await bundles.getById(ctx.ns('_nope')), undefined);
    t.same(await bundles.get(other, bundle.id), { state: 'missing' });
    t.same(await bundles.list(other, page(10, 0)), { total: 0, bundles: [] });
    t.equal(await bundles.update(other, bundle.id, { name: 'hijacked' }, at(2)), undefined);
    t.equal(await bundles.addFeed(other, bundle.id, ctx.ns('feed-x'), at(2)), undefined);
    t.equal(await bundles.removeFeed(other, bundle.id, ctx.ns('feed-a'), at(2)), undefined);
    t.equal(await bundles.markDeleted(other, bundle.id, at(2)), false);
    t.same(await bundles.getById(bundle.id), bundle, 'the owner still sees it unchanged');
  });

  bundleTest(test, 'a deleted bundle says so, cannot change, and deleting it again says false', async (t, bundles, ctx) => {
    const bundle = bundleOf(ctx);
    await bundles.insert(bundle);
    t.equal(await bundles.markDeleted(bundle.accountId, bundle.id, at(2)), true);
    t.same(await bundles.get(bundle.accountId, bundle.id), { state: 'deleted' });
    t.equal(await bundles.getById(bundle.id), undefined, 'its hosted feed is gone');
    t.equal(await bundles.markDeleted(bundle.accountId, bundle.id, at(3)), false);
    t.equal(await bundles.update(bundle.accountId, bundle.id, { name: 'zombie' }, at(3)), undefined);
    t.equal(await bundles.addFeed(bundle.accountId, bundle.id, ctx.ns('feed-x'), at(3)), undefined);
    t.same(await bundles.list(bundle.accountId, page(10, 0)), { total: 0, bundles: [] });
    t.equal(await bundles.markDeleted(bundle.accountId, ctx.ns('_never'), at(3)), false);
  });

  bundleTest(test, 'bundles are listed newest first, with the total and the page asked for', async (t, bundles, ctx) => {
    const acct = ctx.ns('acct-1');
    const idOf = (n: number): string => ctx.ns(`_b${n}`);
    for (const n of [2, 4, 1, 3]) await bundles.insert(bundleOf(ctx, { id: idOf(n), createdAt: at(n) }));
    await bundles.insert(bundleOf(ctx, { id: idOf(5), createdAt: at(3) }));
    const all = await bundles.list(acct, page(10, 0));
    t.equal(all.total, 5);
    t.same(
      all.bundles.map((b) => b.id),
      [4, 5, 3, 2, 1].map(idOf),
      'same time: the later insert first',
    );
    t.same(all.bundles[0]?.feedIds, bundleOf(ctx).feedIds, 'listed bundles carry their feeds');
    const second = await bundles.list(acct, page(2, 2));
    t.same({ total: second.total, ids: second.bundles.map((b) => b.id) }, { total: 5, ids: [idOf(3), idOf(2)] });
    t.same(await bundles.list(acct, page(10, 5)), { total: 5, bundles: [] });
    await bundles.markDeleted(acct, idOf(3), at(9));
    t.equal((await bundles.list(acct, page(10, 0))).total, 4, 'deleted bundles are not counted');
  });

  bundleTest(test, 'an update changes only the fields given', async (t, bundles, ctx) => {
    const bundle = bundleOf(ctx);
    await bundles.insert(bundle);
    const renamed = await bundles.update(bundle.accountId, bundle.id, { name: 'Evening reads' }, at(2));
    t.same(renamed, { ...bundle, name: 'Evening reads', updatedAt: at(2) });
    const cleared = await bundles.update(bundle.accountId, bundle.id, { description: '', icon: '' }, at(3));
    t.same(cleared, { ...bundle, name: 'Evening reads', description: '', icon: '', updatedAt: at(3) });
    t.same(await bundles.getById(bundle.id), cleared, 'what update returned is what is stored');
  });

  bundleTest(test, 'adding a feed twice keeps one, at the end, and says when it changed', async (t, bundles, ctx) => {
    const bundle = bundleOf(ctx);
    await bundles.insert(bundle);
    const added = await bundles.addFeed(bundle.accountId, bundle.id, ctx.ns('feed-c'), at(2));
    t.same(added?.feedIds, ['feed-a', 'feed-b', 'feed-c'].map(ctx.ns));
    t.equal(added?.updatedAt, at(2));
    const again = await bundles.addFeed(bundle.accountId, bundle.id, ctx.ns('feed-a'), at(3));
    t.same(again?.feedIds, ['feed-a', 'feed-b', 'feed-c'].map(ctx.ns), 'an existing member keeps its place');
    t.same((await bundles.getById(bundle.id))?.feedIds, again?.feedIds);
  });

  bundleTest(test, 'removing a feed is idempotent, and a feed added back goes to the end', async (t, bundles, ctx) => {
    const bundle = bundleOf(ctx, { feedIds: ['feed-a', 'feed-b', 'feed-c'].map(ctx.ns) });
    await bundles.insert(bundle);
    const removed = await bundles.removeFeed(bundle.accountId, bundle.id, ctx.ns('feed-a'), at(2));
    t.same(removed?.feedIds, ['feed-b', 'feed-c'].map(ctx.ns));
    t.equal(removed?.updatedAt, at(2));
    const again = await bundles.removeFeed(bundle.accountId, bundle.id, ctx.ns('feed-a'), at(3));
    t.same(again?.feedIds, ['feed-b', 'feed-c'].map(ctx.ns), 'removing a non-member changes no member');
    const back = await bundles.addFeed(bundle.accountId, bundle.id, ctx.ns('feed-a'), at(4));
    t.same(back?.feedIds, ['feed-b', 'feed-c', 'feed-a'].map(ctx.ns));
  });

  bundleTest(test, 'a deleted feed leaves every bundle of its account that held it', async (t, bundles, ctx) => {
    const acct = ctx.ns('acct-1');
    const holders = [
      bundleOf(ctx, { id: ctx.ns('_one') }),
      bundleOf(ctx, { id: ctx.ns('_two'), feedIds: [ctx.ns('feed-b'), ctx.ns('feed-a')] }),
    ];
    const bystander = bundleOf(ctx, { id: ctx.ns('_three'), feedIds: [ctx.ns('feed-b')] });
    for (const bundle of [...holders, bystander]) await bundles.insert(bundle);
    await bundles.removeFeedEverywhere(acct, ctx.ns('feed-a'), at(5));
    for (const holder of holders) {
      const after = await bundles.getById(holder.id);
      t.same(after?.feedIds, [ctx.ns('feed-b')], `${holder.id} no longer holds it`);
      t.equal(after?.updatedAt, at(5), `${holder.id} says when it changed`);
    }
    t.same(await bundles.getById(bystander.id), bystander, 'a bundle without it is untouched');
    await bundles.removeFeedEverywhere(acct, ctx.ns('feed-a'), at(6));
    t.equal((await bundles.getById(ctx.ns('_one')))?.updatedAt, at(5), 'a second removal finds nothing to change');
  });
}
