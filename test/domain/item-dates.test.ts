import t from 'tap';
import { futureDateTolerance, publishedAt } from '../../src/domain/item-dates.js';

const seen = '2024-03-05T12:00:00.000Z';
const shift = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

t.test("an item is shown with the source's own date", async (t) => {
  t.equal(publishedAt('2024-03-01T08:30:00.000Z', seen), '2024-03-01T08:30:00.000Z');
});

t.test('an item without a date is shown with the time it was first seen', async (t) => {
  t.equal(publishedAt(null, seen), seen);
});

t.test('an unreadable source date is replaced by the time the item was first seen', async (t) => {
  t.equal(publishedAt('yesterday-ish', seen), seen);
  t.equal(publishedAt('', seen), seen);
});

t.test('a date slightly ahead of us (clock skew, scheduled posts) is trusted', async (t) => {
  const ahead = shift(seen, futureDateTolerance);
  t.equal(publishedAt(ahead, seen), ahead, 'exactly one day ahead');
  t.equal(publishedAt(shift(seen, 60_000), seen), shift(seen, 60_000));
});

t.test('a far-future date cannot pin an item to the top', async (t) => {
  t.equal(publishedAt(shift(seen, futureDateTolerance + 1), seen), seen);
  t.equal(publishedAt('2099-01-01T00:00:00.000Z', seen), seen);
});

t.test('old dates are kept however old', async (t) => {
  t.equal(publishedAt('1999-12-31T23:59:59.000Z', seen), '1999-12-31T23:59:59.000Z');
});
