import type { StoredResponse } from '../../src/ports/idempotency-store.js';
import type { ContractTest } from './store.js';

const start = new Date('2024-03-01T12:00:00.000Z');
const after = (seconds: number): Date => new Date(start.getTime() + seconds * 1000);
const claimSeconds = 300;
const keepSeconds = 86_400;
const created: StoredResponse = { statusCode: 201, contentType: 'application/json; charset=utf-8', body: '{"id":"feed-1"}' };

export function idempotencyStoreContract(test: ContractTest): void {
  test('the first request with a key claims it; the next sees it in flight with the first fingerprint', async (t, {
    store: { idempotency },
    ns,
  }) => {
    const account = ns('acct');
    t.equal(await idempotency.claim(account, 'key-1', 'fp-A', start, claimSeconds), null);
    t.same(await idempotency.claim(account, 'key-1', 'fp-A', after(1), claimSeconds), { state: 'in_flight', fingerprint: 'fp-A' });
    t.same(
      await idempotency.claim(account, 'key-1', 'fp-B', after(2), claimSeconds),
      { state: 'in_flight', fingerprint: 'fp-A' },
      'another body does not take the key',
    );
  });

  test('a completed request is replayed with its exact response until it is no longer kept', async (t, { store: { idempotency }, ns }) => {
    const account = ns('acct');
    t.equal(await idempotency.claim(account, 'key-1', 'fp-A', start, claimSeconds), null);
    await idempotency.complete(account, 'key-1', created, after(10), keepSeconds);
    // Later than the claim would have lapsed: the response is kept for keepSeconds, not claimSeconds.
    t.same(await idempotency.claim(account, 'key-1', 'fp-A', after(3_600), claimSeconds), {
      state: 'done',
      fingerprint: 'fp-A',
      ...created,
    });
    t.same(await idempotency.claim(account, 'key-1', 'fp-B', after(3_601), claimSeconds), {
      state: 'done',
      fingerprint: 'fp-A',
      ...created,
    });
    t.equal(
      await idempotency.claim(account, 'key-1', 'fp-B', after(10 + keepSeconds), claimSeconds),
      null,
      'free once the response expires',
    );
    t.same(
      await idempotency.claim(account, 'key-1', 'fp-A', after(11 + keepSeconds), claimSeconds),
      { state: 'in_flight', fingerprint: 'fp-B' },
      'the old response is gone',
    );
  });

  test('a claim whose request died lapses claimSeconds after it was made', async (t, { store: { idempotency }, ns }) => {
    const account = ns('acct');
    t.equal(await idempotency.claim(account, 'key-1', 'fp-A', start, claimSeconds), null);
    t.same(await idempotency.claim(account, 'key-1', 'fp-B', after(claimSeconds - 1), claimSeconds), {
      state: 'in_flight',
      fingerprint: 'fp-A',
    });
    t.equal(await idempotency.claim(account, 'key-1', 'fp-B', after(claimSeconds), claimSeconds), null);
    t.same(await idempotency.claim(account, 'key-1', 'fp-C', after(claimSeconds + 1), claimSeconds), {
      state: 'in_flight',
      fingerprint: 'fp-B',
    });
  });

  test('a released key is free for the next request, but a completed response survives a release', async (t, {
    store: { idempotency },
    ns,
  }) => {
    const account = ns('acct');
    await idempotency.claim(account, 'key-1', 'fp-A', start, claimSeconds);
    await idempotency.release(account, 'key-1');
    t.equal(await idempotency.claim(account, 'key-1', 'fp-B', after(1), claimSeconds), null);
    await idempotency.complete(account, 'key-1', created, after(2), keepSeconds);
    await idempotency.release(account, 'key-1');
    t.same(await idempotency.claim(account, 'key-1', 'fp-B', after(3), claimSeconds), { state: 'done', fingerprint: 'fp-B', ...created });
    await idempotency.release(account, ns('never-claimed'));
  });

  test('completing a key nobody holds keeps nothing to replay', async (t, { store: { idempotency }, ns }) => {
    const account = ns('acct');
    await idempotency.complete(account, 'key-1', created, start, keepSeconds);
    t.equal(await idempotency.claim(account, 'key-1', 'fp-A', after(1), claimSeconds), null);
  });

  test('the same key in two accounts is two keys', async (t, { store: { idempotency }, ns }) => {
    t.equal(await idempotency.claim(ns('acct-1'), 'key-1', 'fp-A', start, claimSeconds), null);
    t.equal(await idempotency.claim(ns('acct-2'), 'key-1', 'fp-B', start, claimSeconds), null);
    await idempotency.complete(ns('acct-1'), 'key-1', created, after(1), keepSeconds);
    t.same(await idempotency.claim(ns('acct-2'), 'key-1', 'fp-B', after(2), claimSeconds), { state: 'in_flight', fingerprint: 'fp-B' });
  });

  test('of requests racing for one key exactly one gets it', async (t, { store: { idempotency }, ns }) => {
    const account = ns('acct');
    const fingerprints = ['fp-1', 'fp-2', 'fp-3', 'fp-4', 'fp-5'];
    const answers = await Promise.all(fingerprints.map((fp) => idempotency.claim(account, 'key-1', fp, start, claimSeconds)));
    const winners = fingerprints.filter((_, i) => answers[i] === null);
    t.equal(winners.length, 1, 'one claim wins');
    t.ok(
      answers.every((answer) => answer === null || (answer.state === 'in_flight' && answer.fingerprint === winners[0])),
      'the others see the winner',
    );
    // A lapsed key raced for: again one winner.
    const late = await Promise.all(
      fingerprints.map((fp) => idempotency.claim(account, 'key-1', `${fp}-late`, after(claimSeconds + 5), claimSeconds)),
    );
    t.equal(late.filter((answer) => answer === null).length, 1, 'one takeover wins');
  });
}
