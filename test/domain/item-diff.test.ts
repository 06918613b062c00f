import t from 'tap';
import { diffItems, type KnownItem } from '../../src/domain/item-diff.js';
import { contentHash, itemKey } from '../../src/domain/item-identity.js';
import type { ParsedItem } from '../../src/domain/item.js';

const now = '2024-03-05T12:00:00.000Z';
const earlier = '2024-03-01T09:00:00.000Z';

const item = (n: number, fields: Partial<ParsedItem> = {}): ParsedItem => ({
  url: `https://example.com/posts/${n}`,
  title: `Post ${n}`,
  description_text: `Body ${n}`,
  description_html: `<p>Body ${n}</p>`,
  thumbnail: null,
  authors: [],
  date_published: `2024-03-0${n}T00:00:00.000Z`,
  categories: [],
  enclosures: [],
  ...fields,
});

const knownOf = (items: ParsedItem[], addedAt = earlier): Map<string, KnownItem> =>
  new Map(items.map((i) => [itemKey(i), { contentHash: contentHash(i), addedAt }]));

t.test('a first refresh finds every item fresh, in document order', async (t) => {
  const { fresh, changed } = diffItems('feed1', [item(3), item(2), item(1)], new Map(), now);
  t.same(
    fresh.map((i) => i.title),
    ['Post 3', 'Post 2', 'Post 1'],
  );
  t.same(changed, []);
  const first = fresh[0];
  t.ok(first);
  t.equal(first?.feedId, 'feed1');
  t.equal(first?.key, 'u:https://example.com/posts/3');
  t.equal(first?.contentHash, contentHash(item(3)));
  t.equal(first?.addedAt, now);
  t.equal(first?.publishedAt, '2024-03-03T00:00:00.000Z');
  t.equal(first?.description_html, '<p>Body 3</p>', 'keeps what the source said');
});

t.test('refreshing an unchanged document reports nothing', async (t) => {
  const doc = [item(2), item(1)];
  t.same(diffItems('feed1', doc, knownOf(doc), now), { fresh: [], changed: [], reread: [] });
});

t.test('a new article on top is fresh and the old ones are not reported', async (t) => {
  const { fresh, changed } = diffItems('feed1', [item(3), item(2), item(1)], knownOf([item(2), item(1)]), now);
  t.same(
    fresh.map((i) => i.title),
    ['Post 3'],
  );
  t.same(changed, []);
});

t.test('an edited article is changed and keeps the time it was first added', async (t) => {
  const { fresh, changed } = diffItems('feed1', [item(2, { title: 'Post 2 (corrected)' }), item(1)], knownOf([item(2), item(1)]), now);
  t.same(fresh, []);
  t.equal(changed.length, 1);
  t.equal(changed[0]?.title, 'Post 2 (corrected)');
  t.equal(changed[0]?.addedAt, earlier);
});

t.test('a changed article without a date is dated when it was first added, not now', async (t) => {
  const undated = item(2, { date_published: null });
  const { changed } = diffItems('feed1', [{ ...undated, title: 'edited' }], knownOf([undated]), now);
  t.equal(changed[0]?.publishedAt, earlier);
});

t.test('a fresh article without a date is dated now', async (t) => {
  const { fresh } = diffItems('feed1', [item(2, { date_published: null })], new Map(), now);
  t.equal(fresh[0]?.publishedAt, now);
});

t.test('an article listed twice in one document counts once, the first copy wins', async (t) => {
  const { fresh } = diffItems(
    'feed1',
    [item(1, { title: 'newest copy' }), item(1, { url: 'https://example.com/posts/1?utm_source=x', title: 'older copy' })],
    new Map(),
    now,
  );
  t.same(
    fresh.map((i) => i.title),
    ['newest copy'],
  );
});

t.test('the same article shared with tracking tags is not a new item', async (t) => {
  const { fresh, changed } = diffItems('feed1', [item(1, { url: 'https://example.com/posts/1?utm_source=rss' })], knownOf([item(1)]), now);
  t.same(fresh, []);
  t.equal(changed.length, 1, 'its visible link changed, so it is reported as changed, not new');
});

t.test('running the diff twice on the same input gives the same answer', async (t) => {
  const doc = [item(3), item(2, { title: 'x' }), item(1)];
  const known = knownOf([item(2), item(1)]);
  t.same(diffItems('feed1', doc, known, now), diffItems('feed1', doc, known, now));
});

t.test('two items sharing a guid are two items, and stay the same two on the next refresh', async (t) => {
  const document = [item(2, { id: 'show' }), item(1, { id: 'show' })];
  const first = diffItems('feed1', document, new Map(), now);
  t.same(
    first.fresh.map((i) => i.title),
    ['Post 2', 'Post 1'],
    'neither is dropped',
  );
  t.not(first.fresh[0]?.key, first.fresh[1]?.key);
  const known = new Map(first.fresh.map((i) => [i.key, { contentHash: i.contentHash, addedAt: i.addedAt }]));
  t.same(diffItems('feed1', structuredClone(document), known, now), { fresh: [], changed: [], reread: [] }, 'nothing new or changed');
});

// Items whose entry the source did not change are never announced as changed, however a newer
// parser reads them (issue #31, point 4).
const withSource = (items: ParsedItem[]): Map<string, KnownItem> =>
  new Map(items.map((i) => [itemKey(i), { contentHash: contentHash(i), addedAt: earlier, sourceHash: i.source_hash ?? '' }]));

t.test('an entry read differently from the same source is re-read, not changed', async (t) => {
  const before = [item(2, { source_hash: 's2' }), item(1, { source_hash: 's1' })];
  const newer = [item(2, { source_hash: 's2', authors: [{ name: 'Found now' }] }), item(1, { source_hash: 's1' })];
  const diff = diffItems('feed1', newer, withSource(before), now);
  t.same(diff.changed, [], 'nothing changed at the source');
  t.same(
    diff.reread.map((i) => [i.title, i.authors]),
    [['Post 2', [{ name: 'Found now' }]]],
    'stored again with the new reading',
  );
  t.equal(diff.reread[0]?.addedAt, earlier, 'in its place');
});

t.test('an entry edited at the source is changed', async (t) => {
  const before = [item(2, { source_hash: 's2' })];
  const diff = diffItems('feed1', [item(2, { source_hash: 's2-edited', title: 'Post 2, corrected' })], withSource(before), now);
  t.same(
    diff.changed.map((i) => i.title),
    ['Post 2, corrected'],
  );
  t.same(diff.reread, []);
});

t.test('an item stored before source hashes were kept gets one silently, or is changed if it reads differently', async (t) => {
  const legacy = knownOf([item(2), item(1)]);
  const diff = diffItems(
    'feed1',
    [item(2, { source_hash: 's2' }), item(1, { source_hash: 's1', title: 'Post 1, new title' })],
    legacy,
    now,
  );
  t.same(
    diff.reread.map((i) => [i.title, i.source_hash]),
    [['Post 2', 's2']],
    'the same content: its source hash recorded, unannounced',
  );
  t.same(
    diff.changed.map((i) => i.title),
    ['Post 1, new title'],
    'different content and nothing to compare the source with: changed, as before',
  );
});

t.test('an entry whose source changed but reads the same is stored again, silently', async (t) => {
  const diff = diffItems('feed1', [item(2, { source_hash: 'whitespace-moved' })], withSource([item(2, { source_hash: 's2' })]), now);
  t.same(diff.changed, []);
  t.same(
    diff.reread.map((i) => i.source_hash),
    ['whitespace-moved'],
  );
});

t.test('items a page extractor found (no source hash) are changed when they read differently', async (t) => {
  const diff = diffItems('feed1', [item(2, { title: 'Renamed' })], knownOf([item(2)]), now);
  t.same(
    diff.changed.map((i) => i.title),
    ['Renamed'],
  );
});
