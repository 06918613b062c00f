import t from 'tap';
import { parseFilter } from '../../src/domain/item-filter.js';

const condition = (value = 'rust') => ({ field: 'title', op: 'contains', value });
const group = (size: number, make: () => unknown = condition) => ({ any: Array.from({ length: size }, make) });

t.test('a group holds at most 8 filters, a group inside a group at most 4: 32 conditions at most', async (t) => {
  t.ok(parseFilter({ all: Array.from({ length: 8 }, () => group(4)) }), '8 groups of 4 conditions');
  t.throws(() => parseFilter(group(9)), {
    code: 'validation_failed',
    message: /Expected `filters\.any` to be an array of 1 to 8 filters, got an array of 9 items/,
  });
  t.throws(() => parseFilter({ all: [group(5)] }), {
    code: 'validation_failed',
    message: /Expected `filters\.all\[0\]\.any` to be an array of 1 to 4 filters/,
  });
  t.throws(() => parseFilter({ all: [{ any: [group(1)] }] }), {
    message: /Expected `filters\.all\[0\]\.any\[0\]` to be a condition \(groups nest at most 2 deep\), got a group 3 deep/,
  });
  t.throws(() => parseFilter({ all: [] }), { message: /to be an array of 1 to 8 filters, got an empty array/ });
});

t.test('values are counted in characters, as the schema counts them', async (t) => {
  // 500 astral characters are 1000 UTF-16 units, and still 500 characters.
  t.ok(parseFilter(condition('😀'.repeat(500))));
  t.throws(() => parseFilter(condition('😀'.repeat(501))), { message: /to be a string of 1 to 500 characters, got 501 characters/ });
});
