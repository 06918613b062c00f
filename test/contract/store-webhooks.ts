import type { Webhook } from '../../src/domain/webhook.js';
import type { ContractContext, ContractTest } from './store.js';

const at = (day: number): string => new Date(Date.UTC(2024, 2, day)).toISOString();
const page = (limit: number, offset: number) => ({ limit, offset });

const webhookOf = ({ ns }: ContractContext, name: string, fields: Partial<Webhook> = {}): Webhook => ({
  id: ns(`wh_${name}`),
  accountId: ns('acct-1'),
  url: `https://hooks.example.com/${name}`,
  scope: { kind: 'feeds', feedIds: [ns('feed-a')] },
  filters: {
    any: [
      { field: 'title', op: 'contains', value: 'release' },
      { field: 'url', op: 'matches', value: '^https://' },
    ],
  },
  secrets: [
    { sealed: 'sealed-new', createdAt: at(2), expiresAt: null },
    { sealed: 'sealed-old', createdAt: at(1), expiresAt: at(3) },
  ],
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: at(1),
  updatedAt: at(1),
  ...fields,
});

const byId = (webhooks: Webhook[]): Webhook[] => [...webhooks].sort((a, b) => (a.id < b.id ? -1 : 1));
const idsOf = (webhooks: Webhook[]): string[] => webhooks.map((webhook) => webhook.id);

export function webhookStoreContract(test: ContractTest): void {
  test('a stored webhook reads back whole, and only for its account', async (t, ctx) => {
    const { webhooks } = ctx.store;
    const webhook = webhookOf(ctx, 'a');
    await webhooks.insert(webhook);
    t.same(await webhooks.get(webhook.accountId, webhook.id), webhook);
    t.equal(await webhooks.get(ctx.ns('acct-2'), webhook.id), undefined, "another account's webhook is not found");
    t.equal(await webhooks.get(webhook.accountId, ctx.ns('wh_missing')), undefined);
  });

  test('webhooks are listed newest first, page by page, with the exact total', async (t, ctx) => {
    const { webhooks } = ctx.store;
    for (const [name, day] of [
      ['one', 1],
      ['three', 3],
      ['two', 2],
    ] as const)
      await webhooks.insert(webhookOf(ctx, name, { createdAt: at(day) }));
    await webhooks.insert(webhookOf(ctx, 'other', { accountId: ctx.ns('acct-2'), createdAt: at(4) }));
    const first = await webhooks.list(ctx.ns('acct-1'), page(2, 0));
    t.equal(first.total, 3);
    t.same(
      idsOf(first.webhooks),
      ['three', 'two'].map((name) => ctx.ns(`wh_${name}`)),
    );
    t.same(first.webhooks[0], webhookOf(ctx, 'three', { createdAt: at(3) }), 'list entries are whole webhooks');
    t.same(await webhooks.list(ctx.ns('acct-1'), page(2, 2)), { total: 3, webhooks: [webhookOf(ctx, 'one', { createdAt: at(1) })] });
    t.same(await webhooks.list(ctx.ns('acct-1'), page(2, 5)), { total: 3, webhooks: [] }, 'past the end: no webhooks, the same total');
    t.same(await webhooks.list(ctx.ns('acct-3'), page(10, 0)), { total: 0, webhooks: [] });
  });

  test('of webhooks created in the same moment the later one is listed first', async (t, ctx) => {
    const { webhooks } = ctx.store;
    for (const name of ['first', 'second', 'third']) await webhooks.insert(webhookOf(ctx, name));
    t.same(
      idsOf((await webhooks.list(ctx.ns('acct-1'), page(10, 0))).webhooks),
      ['third', 'second', 'first'].map((name) => ctx.ns(`wh_${name}`)),
    );
  });

  test('saving replaces the webhook, and a disabled one no longer receives events', async (t, ctx) => {
    const { webhooks } = ctx.store;
    const account = ctx.ns('acct-1');
    const [a, b, off] = [webhookOf(ctx, 'a'), webhookOf(ctx, 'b'), webhookOf(ctx, 'off', { enabled: false })];
    for (const webhook of [a, b, off]) await webhooks.insert(webhook);
    await webhooks.insert(webhookOf(ctx, 'elsewhere', { accountId: ctx.ns('acct-2') }));
    t.same(byId(await webhooks.listEnabled(account)), [a, b]);

    const disabled: Webhook = {
      ...a,
      url: 'https://hooks.example.com/moved',
      enabled: false,
      disabledReason: 'The receiver answered 410 Gone',
      failingSince: at(4),
      updatedAt: at(5),
    };
    await webhooks.save(disabled);
    t.same(await webhooks.get(account, a.id), disabled);
    t.same(await webhooks.listEnabled(account), [b]);
    const enabled: Webhook = { ...off, enabled: true, scope: { kind: 'all' }, filters: null, updatedAt: at(5) };
    await webhooks.save(enabled);
    t.same(byId(await webhooks.listEnabled(account)), [b, enabled]);
    t.equal((await webhooks.list(account, page(10, 0))).total, 3, 'saving adds no entries');
  });

  test('deleting says whether it deleted, and a deleted webhook is gone everywhere', async (t, ctx) => {
    const { webhooks } = ctx.store;
    const account = ctx.ns('acct-1');
    const [gone, kept] = [webhookOf(ctx, 'gone'), webhookOf(ctx, 'kept', { createdAt: at(2) })];
    await webhooks.insert(gone);
    await webhooks.insert(kept);
    t.equal(await webhooks.delete(ctx.ns('acct-2'), gone.id), false, 'another account cannot delete it');
    t.same(await webhooks.get(account, gone.id), gone);
    t.equal(await webhooks.delete(account, gone.id), true);
    t.equal(await webhooks.get(account, gone.id), undefined);
    t.same(await webhooks.list(account, page(10, 0)), { total: 1, webhooks: [kept] });
    t.same(await webhooks.listEnabled(account), [kept]);
    t.equal(await webhooks.delete(account, gone.id), false, 'deleting again deletes nothing');
  });

  test('saving a deleted webhook does not bring it back', async (t, ctx) => {
    const { webhooks } = ctx.store;
    const webhook = webhookOf(ctx, 'a');
    await webhooks.insert(webhook);
    await webhooks.delete(webhook.accountId, webhook.id);
    await webhooks.save({ ...webhook, failingSince: at(2) });
    t.equal(await webhooks.get(webhook.accountId, webhook.id), undefined);
    t.same(await webhooks.listEnabled(webhook.accountId), []);
    t.equal((await webhooks.list(webhook.accountId, page(10, 0))).total, 0);
  });

  test('a webhook id is used once', async (t, ctx) => {
    const { webhooks } = ctx.store;
    const webhook = webhookOf(ctx, 'a');
    await webhooks.insert(webhook);
    await t.rejects(webhooks.insert({ ...webhook, url: 'https://hooks.example.com/other' }));
    t.same(await webhooks.get(webhook.accountId, webhook.id), webhook);
    t.equal((await webhooks.list(webhook.accountId, page(10, 0))).total, 1);
  });
}
