import t from 'tap';
import type { StoredItem } from '../../../src/domain/stored-item.js';
import { openTempStore } from './temp-store.js';

const feedId = 'AAAAAAAAAAAAAAAA';

const stored = (n: number, fields: Partial<StoredItem> = {}): StoredItem => ({
  id: `guid-${n}`,
  url: `https://example.com/posts/${n}`,
  title: `Post ${n}`,
  description_text: `Body ${n}`,
  description_html: `<p>Body ${n}</p>`,
  thumbnail: null,
  authors: [{ name: 'Ada' }],
  date_published: `2024-03-0${n}T00:00:00.000Z`,
  categories: ['news'],
  enclosures: [{ url: `https://example.com/${n}.mp3`, type: 'audio/mpeg', length: n }],
  feedId,
  key: `g:guid-${n}`,
  contentHash: `hash-${n}`,
  addedAt: '2024-03-10T00:00:00.000Z',
  publishedAt: `2024-03-0${n}T00:00:00.000Z`,
  ...fields,
});

const titles = (items: StoredItem[]): string[] => items.map((i) => i.title);

t.test('a stored item reads back with everything the source said', async (t) => {
  const { items } = openTempStore(t);
  const item = stored(1, { thumbnail: 'https://example.com/t.jpg' });
  await items.upsert([item]);
  t.same(await items.list(feedId, 'last_added', 10), [item]);
});

t.test('writing the same items twice leaves the same state', async (t) => {
  const { items } = openTempStore(t);
  const batch = [stored(2), stored(1)];
  await items.upsert(batch);
  const once = await items.list(feedId, 'last_added', 10);
  await items.upsert(batch);
  t.same(await items.list(feedId, 'last_added', 10), once);
  t.equal(once.length, 2);
  t.same(
    await items.known(feedId),
    new Map([
      ['g:guid-2', { contentHash: 'hash-2', addedAt: '2024-03-10T00:00:00.000Z' }],
      ['g:guid-1', { contentHash: 'hash-1', addedAt: '2024-03-10T00:00:00.000Z' }],
    ]),
  );
});

t.test('a changed item is updated in place: it keeps when it was added and its position', async (t) => {
  const { items } = openTempStore(t);
  await items.upsert([stored(3), stored(2), stored(1)]);
  // the edit arrives alone (position 0 of its batch) and claims a later addedAt
  await items.upsert([stored(2, { title: 'Post 2 (corrected)', contentHash: 'hash-2b', addedAt: '2024-03-11T00:00:00.000Z', publishedAt: '2024-03-02T12:00:00.000Z' })]);
  const listed = await items.list(feedId, 'last_added', 10);
  t.same(titles(listed), ['Post 3', 'Post 2 (corrected)', 'Post 1'], 'still between its neighbours');
  t.equal(listed[1]?.addedAt, '2024-03-10T00:00:00.000Z');
  t.equal(listed[1]?.contentHash, 'hash-2b');
  t.equal(listed[1]?.publishedAt, '2024-03-02T12:00:00.000Z', 'its shown date follows the edit');
  t.equal((await items.known(feedId)).get('g:guid-2')?.contentHash, 'hash-2b', 'the next diff sees the new content');
  t.equal(await items.lastAddedAt(feedId), '2024-03-10T00:00:00.000Z', 'an edit does not make the feed look newer');
});

t.test('by last_added, newer batches come first and each batch keeps document order', async (t) => {
  const { items } = openTempStore(t);
  // document order is newest first, but dates may disagree with it; last_added ignores dates
  await items.upsert([stored(1), stored(3), stored(2)]);
  await items.upsert([stored(5, { addedAt: '2024-03-11T00:00:00.000Z' }), stored(4, { addedAt: '2024-03-11T00:00:00.000Z' })]);
  t.same(titles(await items.list(feedId, 'last_added', 10)), ['Post 5', 'Post 4', 'Post 1', 'Post 3', 'Post 2']);
  t.equal(await items.lastAddedAt(feedId), '2024-03-11T00:00:00.000Z');
});

t.test('by date, items are ordered by their shown date, newest first', async (t) => {
  const { items } = openTempStore(t);
  await items.upsert([stored(1), stored(3), stored(2)]);
  await items.upsert([stored(4, { addedAt: '2024-03-11T00:00:00.000Z', publishedAt: '2024-02-01T00:00:00.000Z' })]);
  t.same(titles(await items.list(feedId, 'date', 10)), ['Post 3', 'Post 2', 'Post 1', 'Post 4']);
});

t.test('items with the same date keep document order', async (t) => {
  const { items } = openTempStore(t);
  const same = { publishedAt: '2024-03-01T00:00:00.000Z' };
  await items.upsert([stored(2, same), stored(3, same), stored(1, same)]);
  t.same(titles(await items.list(feedId, 'date', 10)), ['Post 2', 'Post 3', 'Post 1']);
});

t.test('a list returns at most the limit asked for, from the top', async (t) => {
  const { items } = openTempStore(t);
  await items.upsert([stored(3), stored(2), stored(1)]);
  t.same(titles(await items.list(feedId, 'last_added', 2)), ['Post 3', 'Post 2']);
  t.same(titles(await items.list(feedId, 'date', 1)), ['Post 3']);
});

t.test("one feed's items are not another's, even with the same key", async (t) => {
  const { items } = openTempStore(t);
  await items.upsert([stored(1)]);
  await items.upsert([stored(1, { feedId: 'BBBBBBBBBBBBBBBB', title: 'Other feed' })]);
  t.same(titles(await items.list(feedId, 'last_added', 10)), ['Post 1']);
  t.same(titles(await items.list('BBBBBBBBBBBBBBBB', 'last_added', 10)), ['Other feed']);
  t.equal((await items.known(feedId)).size, 1);
});

t.test('a feed without items has none and no last-added time', async (t) => {
  const { items } = openTempStore(t);
  t.same(await items.list(feedId, 'last_added', 10), []);
  t.same(await items.known(feedId), new Map());
  t.equal(await items.lastAddedAt(feedId), undefined);
  await items.upsert([]);
  t.same(await items.list(feedId, 'date', 10), []);
});

t.test('a batch that fails part-way writes nothing', async (t) => {
  const { items } = openTempStore(t);
  const broken = { ...stored(2), addedAt: null } as unknown as StoredItem;
  await t.rejects(items.upsert([stored(1), broken]));
  t.same(await items.list(feedId, 'last_added', 10), []);
});
