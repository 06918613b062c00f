import { idleDistribution, type WebsubSubscription } from '../../src/domain/websub.js';
import type { ContractContext, ContractTest } from './store.js';

const hour = 3_600_000;
/** Real time ahead: Cassandra counts a lease's TTL by the server's clock. */
const inHours = (hours: number): string => new Date(Date.now() + hours * hour).toISOString();
const hoursFromNow = (hours: number): Date => new Date(Date.now() + hours * hour);

const subscriptionOf = ({ ns }: ContractContext, name: string, fields: Partial<WebsubSubscription> = {}): WebsubSubscription => ({
  id: `wss_${ns(name)}`,
  accountId: ns('acct'),
  topic: { url: `https://feeds.example.test/feeds/${ns('feed')}.xml`, id: ns('feed'), format: 'xml' },
  callback: `https://subscriber.example.test/${name}?token=1`,
  sealedSecret: null,
  leaseSeconds: 7200,
  expiresAt: inHours(2),
  createdAt: '2026-11-25T00:00:00.000Z',
  ...fields,
});

export function websubStoreContract(test: ContractTest): void {
  test('websub: a subscription reads back as saved, idle, and is listed under its account', async (t, ctx) => {
    const { websub } = ctx.store;
    const subscription = subscriptionOf(ctx, 'a', {
      sealedSecret: 'sealed.secret.x',
      topic: { url: 'https://feeds.example.test/feeds/x.json', id: ctx.ns('feed'), format: 'json' },
    });
    await websub.saveLease(subscription);
    t.same(await websub.get(subscription.id, new Date()), { ...subscription, distribution: idleDistribution });
    t.same(
      (await websub.listByAccount(ctx.ns('acct'), new Date())).map((s) => s.id),
      [subscription.id],
    );
    t.same(await websub.listByAccount(ctx.ns('other'), new Date()), []);
    t.equal(await websub.get(`wss_${ctx.ns('missing')}`, new Date()), undefined);
  });

  test('websub: a renewal changes the lease and secret, keeps createdAt and the distribution', async (t, ctx) => {
    const { websub } = ctx.store;
    const first = subscriptionOf(ctx, 'a');
    await websub.saveLease(first);
    const pending = { pending: true, attempts: 2, nextAttemptAt: inHours(1) };
    await websub.saveDistribution(first.id, pending);
    const renewed = {
      ...first,
      sealedSecret: 'new.sealed.secret',
      leaseSeconds: 36_000,
      expiresAt: inHours(10),
      createdAt: '2026-11-26T00:00:00.000Z',
    };
    await websub.saveLease(renewed);
    t.same(await websub.get(first.id, new Date()), { ...renewed, createdAt: first.createdAt, distribution: pending });
    t.equal((await websub.listByAccount(ctx.ns('acct'), new Date())).length, 1, 'one subscription per topic and callback');
  });

  test('websub: a subscription is gone once its lease ends', async (t, ctx) => {
    const { websub } = ctx.store;
    const subscription = subscriptionOf(ctx, 'a', { expiresAt: inHours(1) });
    await websub.saveLease(subscription);
    await websub.saveDistribution(subscription.id, { pending: true, attempts: 0, nextAttemptAt: inHours(0) });
    t.ok(await websub.get(subscription.id, hoursFromNow(0.5)));
    t.equal(await websub.get(subscription.id, hoursFromNow(2)), undefined);
    t.same(await websub.listByAccount(ctx.ns('acct'), hoursFromNow(2)), []);
    t.notOk((await websub.listPending(hoursFromNow(2))).some(({ id }) => id === subscription.id));
  });

  test('websub: pending distributions are listed until they are done', async (t, ctx) => {
    const { websub } = ctx.store;
    const a = subscriptionOf(ctx, 'a');
    const b = subscriptionOf(ctx, 'b');
    await websub.saveLease(a);
    await websub.saveLease(b);
    const ours = async (): Promise<Record<string, string | null>> =>
      Object.fromEntries(
        (await websub.listPending(new Date()))
          .filter(({ id }) => id.startsWith(`wss_${ctx.ns('')}`))
          .map(({ id, nextAttemptAt }) => [id, nextAttemptAt]),
      );
    t.same(await ours(), {});
    const at = inHours(1);
    await websub.saveDistribution(a.id, { pending: true, attempts: 1, nextAttemptAt: at });
    t.same(await ours(), { [a.id]: at });
    t.same((await websub.get(a.id, new Date()))?.distribution, { pending: true, attempts: 1, nextAttemptAt: at });
    await websub.saveDistribution(a.id, idleDistribution);
    t.same(await ours(), {});
  });

  test('websub: removing a subscription ends it; removing it again, or a distribution after, changes nothing', async (t, ctx) => {
    const { websub } = ctx.store;
    const subscription = subscriptionOf(ctx, 'a');
    await websub.saveLease(subscription);
    await websub.remove(subscription.id);
    t.equal(await websub.get(subscription.id, new Date()), undefined);
    await websub.remove(subscription.id);
    await websub.saveDistribution(subscription.id, { pending: true, attempts: 1, nextAttemptAt: inHours(1) });
    t.equal(await websub.get(subscription.id, new Date()), undefined);
    t.same(await websub.listByAccount(ctx.ns('acct'), new Date()), []);
  });
}
