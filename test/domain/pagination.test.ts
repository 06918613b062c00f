import t, { type Test } from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { pageLimits, parsePage, type PageQuery } from '../../src/domain/pagination.js';

t.test('a list request without paging gets the first 10', async (t) => {
  t.same(parsePage({}), { limit: 10, offset: 0 });
  t.equal(pageLimits.defaultLimit, 10);
  t.equal(pageLimits.maxLimit, 100);
});

t.test('limit and offset from a query string are read as integers', async (t) => {
  t.same(parsePage({ limit: '25', offset: '50' }), { limit: 25, offset: 50 });
  t.same(parsePage({ limit: 1 }), { limit: 1, offset: 0 });
  t.same(parsePage({ limit: '100' }), { limit: 100, offset: 0 });
  t.same(parsePage({ limit: ' 7 ' }), { limit: 7, offset: 0 });
  t.same(parsePage({ offset: '1000000' }), { limit: 10, offset: 1_000_000 });
});

t.test('the $limit and $offset spelling is accepted too', async (t) => {
  t.same(parsePage({ $limit: '5', $offset: '15' }), { limit: 5, offset: 15 });
  t.same(parsePage({ limit: '5', $limit: '50' }), { limit: 5, offset: 0 }, 'the plain name wins when both are given');
});

const rejects = (t: Test, query: PageQuery, message: string): void => {
  let error: unknown;
  try {
    parsePage(query);
  } catch (caught) {
    error = caught;
  }
  t.ok(error instanceof FeedmillError, `${JSON.stringify(query)} is refused`);
  t.equal((error as FeedmillError | undefined)?.code, 'validation_failed');
  t.equal((error as FeedmillError | undefined)?.message, message);
};

t.test('a limit outside 1 to 100 is refused, saying what was expected and what arrived', async (t) => {
  rejects(t, { limit: '0' }, 'Expected `limit` to be an integer from 1 to 100, got "0"');
  rejects(t, { limit: '101' }, 'Expected `limit` to be an integer from 1 to 100, got "101"');
  rejects(t, { limit: '-5' }, 'Expected `limit` to be an integer from 1 to 100, got "-5"');
  rejects(t, { $limit: 1000 }, 'Expected `limit` to be an integer from 1 to 100, got 1000');
});

t.test('a limit that is not a whole number is refused', async (t) => {
  for (const limit of ['ten', '2.5', '1e1', '0x10', '', '+5', '5abc']) {
    rejects(t, { limit }, `Expected \`limit\` to be an integer from 1 to 100, got ${limit === '' ? 'an empty string' : `"${limit}"`}`);
  }
  rejects(t, { limit: 2.5 }, 'Expected `limit` to be an integer from 1 to 100, got 2.5');
});

t.test('a negative or non-integer offset is refused', async (t) => {
  rejects(t, { offset: '-1' }, 'Expected `offset` to be an integer of at least 0, got "-1"');
  rejects(t, { offset: 'abc' }, 'Expected `offset` to be an integer of at least 0, got "abc"');
  rejects(t, { $offset: '1.5' }, 'Expected `offset` to be an integer of at least 0, got "1.5"');
  rejects(t, { offset: '99999999999999999999' }, 'Expected `offset` to be an integer of at least 0, got "99999999999999999999"');
});
