import type { Delivery, DeliveryAttempt } from '../../src/domain/delivery.js';
import type { DeliveryStore } from '../../src/ports/delivery-store.js';
import type { ContractContext, ContractTest } from './store.js';

const at = (minute: number): string => new Date(Date.UTC(2024, 2, 1, 12, minute)).toISOString();
const page = (limit: number, offset: number) => ({ limit, offset });

const deliveryOf = ({ ns }: ContractContext, name: string, fields: Partial<Delivery> = {}): Delivery => ({
  id: ns(`dlv_${name}`),
  webhookId: ns('wh_1'),
  accountId: ns('acct'),
  eventId: ns(`evt_${name}`),
  body: `{"id":"${ns(`evt_${name}`)}","type":"feed_update"}`,
  status: 'pending',
  attempts: 0,
  createdAt: at(0),
  nextAttemptAt: at(0),
  ...fields,
});

const attemptOf = (delivery: Delivery, attempt: number, minute: number, fields: Partial<DeliveryAttempt> = {}): DeliveryAttempt => ({
  deliveryId: delivery.id,
  eventId: delivery.eventId,
  attempt,
  at: at(minute),
  statusCode: 503,
  latencyMs: 120 + attempt,
  error: 'receiver_status',
  responseExcerpt: 'Service Unavailable',
  outcome: 'failed',
  ...fields,
});

/** This test's pending deliveries by id: the list spans the whole store. */
const pendingOf = async (deliveries: DeliveryStore, { ns }: ContractContext): Promise<Record<string, string | null>> =>
  Object.fromEntries(
    (await deliveries.listPending()).filter(({ id }) => id.startsWith(ns(''))).map(({ id, nextAttemptAt }) => [id, nextAttemptAt]),
  );

export function deliveryStoreContract(test: ContractTest): void {
  test('a delivery is created once: creating it again says so and changes nothing', async (t, ctx) => {
    const { deliveries } = ctx.store;
    const delivery = deliveryOf(ctx, 'a');
    t.equal(await deliveries.create(delivery), true);
    t.same(await deliveries.get(delivery.id), delivery);
    t.equal(await deliveries.create({ ...delivery, body: '{"other":true}', status: 'failed', attempts: 3, nextAttemptAt: null }), false);
    t.same(await deliveries.get(delivery.id), delivery);
    t.equal(await deliveries.get(ctx.ns('dlv_missing')), undefined);
  });

  test('saving a delivery records its progress', async (t, ctx) => {
    const { deliveries } = ctx.store;
    const delivery = deliveryOf(ctx, 'a');
    await deliveries.create(delivery);
    const retrying: Delivery = { ...delivery, attempts: 1, nextAttemptAt: at(5) };
    await deliveries.save(retrying);
    t.same(await deliveries.get(delivery.id), retrying);
    const failed: Delivery = { ...delivery, status: 'failed', attempts: 8, nextAttemptAt: null };
    await deliveries.save(failed);
    t.same(await deliveries.get(delivery.id), failed, 'the next attempt time is cleared');
  });

  test('saving a delivery that was never created creates nothing', async (t, ctx) => {
    const { deliveries } = ctx.store;
    const ghost = deliveryOf(ctx, 'ghost');
    await deliveries.save(ghost);
    t.equal(await deliveries.get(ghost.id), undefined);
    t.same(await pendingOf(deliveries, ctx), {});
  });

  test('deliveries are pending, with when to try next, until they succeed or give up', async (t, ctx) => {
    const { deliveries } = ctx.store;
    const [a, b, c] = [deliveryOf(ctx, 'a'), deliveryOf(ctx, 'b', { nextAttemptAt: null }), deliveryOf(ctx, 'c')];
    for (const delivery of [a, b, c]) await deliveries.create(delivery);
    t.same(await pendingOf(deliveries, ctx), { [a.id]: at(0), [b.id]: null, [c.id]: at(0) });
    await deliveries.save({ ...a, attempts: 1, nextAttemptAt: at(5) });
    await deliveries.save({ ...b, status: 'succeeded', attempts: 1, nextAttemptAt: null });
    await deliveries.save({ ...c, status: 'failed', attempts: 8, nextAttemptAt: null });
    t.same(await pendingOf(deliveries, ctx), { [a.id]: at(5) });
    await deliveries.save({ ...c, status: 'pending', attempts: 8, nextAttemptAt: at(9) });
    t.same(await pendingOf(deliveries, ctx), { [a.id]: at(5), [c.id]: at(9) }, 'a retried delivery is pending again');
    t.equal(await deliveries.create({ ...b, status: 'pending' }), false);
    t.same(await pendingOf(deliveries, ctx), { [a.id]: at(5), [c.id]: at(9) }, 'creating a finished delivery again leaves it finished');
  });

  test("a webhook's call history lists attempts newest first, page by page, with the exact total", async (t, ctx) => {
    const { deliveries } = ctx.store;
    const [a, b] = [deliveryOf(ctx, 'a'), deliveryOf(ctx, 'b')];
    const elsewhere = deliveryOf(ctx, 'c', { webhookId: ctx.ns('wh_2') });
    for (const delivery of [a, b, elsewhere]) await deliveries.create(delivery);
    const a1 = attemptOf(a, 1, 1, { statusCode: null, error: 'upstream_timeout', responseExcerpt: '' });
    const b1 = attemptOf(b, 1, 2);
    const a2 = attemptOf(a, 2, 3, { statusCode: 200, error: null, responseExcerpt: 'ok', outcome: 'succeeded' });
    const c1 = attemptOf(elsewhere, 1, 4);
    for (const attempt of [a1, b1, a2, c1]) await deliveries.recordAttempt(attempt);
    t.same(await deliveries.listAttempts(ctx.ns('wh_1'), page(2, 0)), { total: 3, attempts: [a2, b1] });
    t.same(await deliveries.listAttempts(ctx.ns('wh_1'), page(2, 2)), { total: 3, attempts: [a1] });
    t.same(
      await deliveries.listAttempts(ctx.ns('wh_1'), page(2, 3)),
      { total: 3, attempts: [] },
      'past the end: no attempts, the same total',
    );
    t.same(await deliveries.listAttempts(ctx.ns('wh_2'), page(10, 0)), { total: 1, attempts: [c1] });
    t.same(await deliveries.listAttempts(ctx.ns('wh_none'), page(10, 0)), { total: 0, attempts: [] });
  });

  test('attempts of the same moment list the later attempt first', async (t, ctx) => {
    const { deliveries } = ctx.store;
    const delivery = deliveryOf(ctx, 'a');
    await deliveries.create(delivery);
    const [first, second] = [attemptOf(delivery, 1, 7), attemptOf(delivery, 2, 7)];
    await deliveries.recordAttempt(first);
    await deliveries.recordAttempt(second);
    t.same((await deliveries.listAttempts(delivery.webhookId, page(10, 0))).attempts, [second, first]);
  });

  test('an attempt recorded twice (a delivery job retried after a crash) is listed once, as first recorded', async (t, ctx) => {
    const { deliveries } = ctx.store;
    const delivery = deliveryOf(ctx, 'a');
    await deliveries.create(delivery);
    const first = attemptOf(delivery, 1, 1);
    await deliveries.recordAttempt(first);
    await deliveries.recordAttempt(attemptOf(delivery, 1, 2, { statusCode: 200, error: null, outcome: 'succeeded' }));
    t.same(await deliveries.listAttempts(delivery.webhookId, page(10, 0)), { total: 1, attempts: [first] });
  });
}
