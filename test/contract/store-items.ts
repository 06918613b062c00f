import type { FeedEventEnvelope } from '../../src/webhook-event/feed-update-event.js';
import type { ItemArticle } from '../../src/domain/item-article.js';
import type { StoredItem } from '../../src/domain/stored-item.js';
import type { ItemStore } from '../../src/ports/item-store.js';
import { articleOf } from '../fixtures/item-article.js';
import type { ContractTest } from './store.js';

const day = (n: number): string => new Date(Date.UTC(2024, 2, n)).toISOString();

const itemOf = (feedId: string, n: number, fields: Partial<StoredItem> = {}): StoredItem => ({
  id: `guid-${n}`,
  url: `https://example.com/posts/${n}`,
  title: `Post ${n}`,
  description_text: `Body ${n}`,
  description_html: `<p>Body ${n}</p>`,
  thumbnail: null,
  authors: [{ name: 'Ada' }],
  date_published: day(n),
  categories: ['news'],
  enclosures: [{ url: `https://example.com/${n}.mp3`, type: 'audio/mpeg', length: n }],
  feedId,
  key: `g:guid-${n}`,
  contentHash: `hash-${n}`,
  addedAt: day(10),
  publishedAt: day(n),
  ...fields,
});

const titles = (items: StoredItem[]): string[] => items.map((i) => i.title);

/** Commits one feed's items at the version the store is at, as a refresh that nobody overtook does. */
async function put(items: ItemStore, batch: readonly StoredItem[], feedId = batch[0]?.feedId ?? 'none'): Promise<void> {
  const { version } = await items.known(feedId);
  if (!(await items.commit(feedId, version, batch))) throw new Error(`the commit to ${feedId} at version ${version} was refused`);
}

const eventOf = (feedId: string, id: string, keys: string[]): FeedEventEnvelope => ({
  itemKeys: keys,
  accountId: 'acct',
  feedId,
  occurredAt: day(12),
  event: {
    id,
    type: 'feed_update',
    feed: {
      id: feedId,
      title: 'A feed',
      source_url: 'https://example.com/feed',
      rss_feed_url: `https://feeds.example.test/feeds/${feedId}.xml`,
      description: '',
      icon: '',
    },
    data: { items_new: [], items_changed: [] },
  },
});

export function itemStoreContract(test: ContractTest): void {
  test('a stored item reads back with everything the source said', async (t, { store, ns }) => {
    // an item without a guid, authors or enclosures: optional and empty parts survive too
    const { id: _guid, ...item } = itemOf(ns('feed'), 1, { thumbnail: 'https://example.com/t.jpg', authors: [], enclosures: [] });
    await put(store.items, [item]);
    t.same(await store.items.list(ns('feed'), 'last_added', 10), [item]);
    t.same(await store.items.getMany(ns('feed'), [item.key]), [item]);
  });

  test('writing the same items twice leaves the same state', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    const batch = [itemOf(feedId, 2), itemOf(feedId, 1)];
    await put(items, batch);
    const once = await items.list(feedId, 'last_added', 10);
    await put(items, batch);
    t.same(await items.list(feedId, 'last_added', 10), once);
    t.same(await items.list(feedId, 'date', 10), once, 'the date order holds no duplicate either');
    t.equal(once.length, 2);
    t.same(
      (await items.known(feedId)).items,
      new Map([
        ['g:guid-2', { contentHash: 'hash-2', addedAt: day(10) }],
        ['g:guid-1', { contentHash: 'hash-1', addedAt: day(10) }],
      ]),
    );
  });

  test('a changed item is updated in place: it keeps when it was added and its position', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    await put(items, [itemOf(feedId, 3), itemOf(feedId, 2), itemOf(feedId, 1)]);
    // the edit arrives alone (position 0 of its batch) and claims a later addedAt and a new date
    const edit = { title: 'Post 2 (corrected)', contentHash: 'hash-2b', addedAt: day(11), publishedAt: '2024-03-02T12:00:00.000Z' };
    await put(items, [itemOf(feedId, 2, edit)]);
    const listed = await items.list(feedId, 'last_added', 10);
    t.same(titles(listed), ['Post 3', 'Post 2 (corrected)', 'Post 1'], 'still between its neighbours');
    t.equal(listed[1]?.addedAt, day(10));
    t.equal(listed[1]?.contentHash, 'hash-2b');
    t.equal(listed[1]?.publishedAt, '2024-03-02T12:00:00.000Z', 'its shown date follows the edit');
    t.same(titles(await items.list(feedId, 'date', 10)), ['Post 3', 'Post 2 (corrected)', 'Post 1'], 'and appears once by date');
    t.equal((await items.known(feedId)).items.get('g:guid-2')?.contentHash, 'hash-2b', 'the next diff sees the new content');
    t.equal(await items.lastAddedAt(feedId), day(10), 'an edit does not make the feed look newer');
    t.same((await items.getMany(feedId, ['g:guid-2']))[0]?.addedAt, day(10));
  });

  test("the hash of an entry's source is kept for the next diff, and replaced when the entry is", async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    await put(items, [itemOf(feedId, 2, { source_hash: 'source-2' }), itemOf(feedId, 1)]);
    const known = (await items.known(feedId)).items;
    t.same(known.get('g:guid-2'), { contentHash: 'hash-2', addedAt: day(10), sourceHash: 'source-2' });
    t.same(known.get('g:guid-1'), { contentHash: 'hash-1', addedAt: day(10) }, 'an item without one has none');
    t.equal((await items.getMany(feedId, ['g:guid-2']))[0]?.source_hash, 'source-2', 'the stored item carries it too');
    await put(items, [itemOf(feedId, 2, { source_hash: 'source-2b', contentHash: 'hash-2b' })]);
    t.equal((await items.known(feedId)).items.get('g:guid-2')?.sourceHash, 'source-2b');
  });

  test('by last_added, newer batches come first and each batch keeps document order', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    // document order is newest first, but dates may disagree with it; last_added ignores dates
    await put(items, [itemOf(feedId, 1), itemOf(feedId, 3), itemOf(feedId, 2)]);
    await put(items, [itemOf(feedId, 5, { addedAt: day(11) }), itemOf(feedId, 4, { addedAt: day(11) })]);
    t.same(titles(await items.list(feedId, 'last_added', 10)), ['Post 5', 'Post 4', 'Post 1', 'Post 3', 'Post 2']);
    t.equal(await items.lastAddedAt(feedId), day(11));
  });

  test('by date, items are ordered by their shown date, newest first', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    await put(items, [itemOf(feedId, 1), itemOf(feedId, 3), itemOf(feedId, 2)]);
    await put(items, [itemOf(feedId, 4, { addedAt: day(11), publishedAt: '2024-02-01T00:00:00.000Z' })]);
    t.same(titles(await items.list(feedId, 'date', 10)), ['Post 3', 'Post 2', 'Post 1', 'Post 4']);
  });

  test('items with the same date keep document order', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    const same = { publishedAt: day(1) };
    await put(items, [itemOf(feedId, 2, same), itemOf(feedId, 3, same), itemOf(feedId, 1, same)]);
    t.same(titles(await items.list(feedId, 'date', 10)), ['Post 2', 'Post 3', 'Post 1']);
  });

  test('a list returns at most the limit asked for, from the top', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    await put(items, [itemOf(feedId, 3), itemOf(feedId, 2), itemOf(feedId, 1)]);
    t.same(titles(await items.list(feedId, 'last_added', 2)), ['Post 3', 'Post 2']);
    t.same(titles(await items.list(feedId, 'date', 1)), ['Post 3']);
  });

  test('the stored versions asked for are returned, in the order asked, skipping unknown keys', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    await put(items, [itemOf(feedId, 1), itemOf(feedId, 2)]);
    t.same(titles(await items.getMany(feedId, ['g:guid-2', 'g:unknown', 'g:guid-1'])), ['Post 2', 'Post 1']);
    t.same(await items.getMany(feedId, []), []);
    t.same(await items.getMany(ns('other-feed'), ['g:guid-1']), []);
  });

  test("one feed's items are not another's, even with the same key", async (t, { store: { items }, ns }) => {
    await put(items, [itemOf(ns('feed'), 1)]);
    await put(items, [itemOf(ns('other'), 1, { title: 'Other feed' })]);
    t.same(titles(await items.list(ns('feed'), 'last_added', 10)), ['Post 1']);
    t.same(titles(await items.list(ns('other'), 'last_added', 10)), ['Other feed']);
    t.equal((await items.known(ns('feed'))).items.size, 1);
  });

  test('a feed without items has none and no last-added time', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    t.same(await items.list(feedId, 'last_added', 10), []);
    t.same(await items.known(feedId), { version: 0, items: new Map() });
    t.equal(await items.lastAddedAt(feedId), undefined);
    await put(items, [], feedId);
    t.same(await items.list(feedId, 'date', 10), []);
  });

  test('a batch with a broken item writes nothing', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    const broken = { ...itemOf(feedId, 2), addedAt: null } as unknown as StoredItem;
    await t.rejects(put(items, [itemOf(feedId, 1), broken]));
    t.same(await items.list(feedId, 'last_added', 10), []);
    t.same(await items.known(feedId), { version: 0, items: new Map() });
  });

  test('a commit moves the version by one, and one at a version already passed is refused and writes nothing', async (t, {
    store: { items, outbox },
    ns,
  }) => {
    const feedId = ns('feed');
    t.equal((await items.known(feedId)).version, 0, 'a feed never committed to is at version 0');
    t.ok(await items.commit(feedId, 0, [itemOf(feedId, 1)]));
    t.equal((await items.known(feedId)).version, 1);
    // Two refreshes read version 1; the first to commit wins, with its event.
    const winner = eventOf(feedId, ns('evt_winner'), ['g:guid-2']);
    const loser = eventOf(feedId, ns('evt_loser'), ['g:guid-2', 'g:guid-3']);
    t.ok(await items.commit(feedId, 1, [itemOf(feedId, 2)], winner), 'the first commit at version 1 applies');
    t.notOk(await items.commit(feedId, 1, [itemOf(feedId, 2, { title: 'Stale' }), itemOf(feedId, 3)], loser), 'the second is refused');
    t.same(titles(await items.list(feedId, 'last_added', 10)).sort(), ['Post 1', 'Post 2'], 'none of the refused items was stored');
    t.equal((await items.known(feedId)).version, 2);
    const pending = (await outbox.unpublished(1000)).map((envelope) => envelope.event.id).filter((id) => id.startsWith(ns('')));
    t.same(pending, [winner.event.id], 'only the winning event is in the outbox, unpublished');
    await outbox.markPublished(winner.event.id, day(13));
  });

  test('a refused commit of a new feed writes nothing either', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    t.notOk(await items.commit(feedId, 3, [itemOf(feedId, 1)]), 'version 3 was never reached');
    t.same(await items.known(feedId), { version: 0, items: new Map() });
  });

  test('an article is kept beside its item: reads carry it, commits never erase it', async (t, { store: { items }, ns }) => {
    const feedId = ns('feed');
    await put(items, [itemOf(feedId, 1), itemOf(feedId, 2)]);
    const stamp = await items.articlesStamp(feedId);
    const article: ItemArticle = {
      url: 'https://example.com/posts/1',
      status: 'ok',
      error: null,
      html: '<p>The whole article</p>',
      text: 'The whole article',
      attempts: 1,
      announced: true,
      since: day(11),
    };
    await items.saveArticle(feedId, 'g:guid-1', article);
    t.not(await items.articlesStamp(feedId), stamp, 'saving an article moves the stamp hosted documents are cached by');
    const [first, second] = await items.list(feedId, 'last_added', 10);
    t.same(first?.article, article, 'list carries the article');
    t.equal(second?.article, undefined, 'an item without one has none');
    t.same((await items.getMany(feedId, ['g:guid-1']))[0]?.article, article, 'getMany carries it too');
    // A refresh that changes the item commits it without its article: the article stays.
    await put(items, [itemOf(feedId, 1, { title: 'Edited', contentHash: 'hash-edited' })]);
    const [edited] = await items.getMany(feedId, ['g:guid-1']);
    t.equal(edited?.title, 'Edited');
    t.same(edited?.article, article, 'the commit left the article alone');
    // An item committed with an article attached does not store it in the item itself.
    await put(items, [{ ...itemOf(feedId, 2), contentHash: 'hash-2b', article: { ...article, url: 'https://example.com/posts/2' } }]);
    t.equal((await items.getMany(feedId, ['g:guid-2']))[0]?.article, undefined, 'only saveArticle stores an article');
    const replaced: ItemArticle = { ...article, status: 'failed', error: { code: 'timeout', message: 'too slow' }, html: '', text: '' };
    await items.saveArticle(feedId, 'g:guid-1', replaced);
    t.same(await items.articles(feedId), new Map([['g:guid-1', replaced]]), "articles lists the feed's article records, replaced in place");
    t.same(await items.articles(ns('other')), new Map(), 'another feed has none');
  });

  test('feedsWithArticles names the feeds with an article record and no other', async (t, { store: { items }, ns }) => {
    const [withOne, itemsOnly] = [ns('with-article'), ns('items-only')];
    await put(items, [itemOf(withOne, 1), itemOf(withOne, 2)]);
    await put(items, [itemOf(itemsOnly, 1)]);
    t.notOk((await items.feedsWithArticles()).has(withOne), 'items alone make no article record');
    const pending = articleOf();
    await items.saveArticle(withOne, 'g:guid-1', pending);
    await items.saveArticle(withOne, 'g:guid-2', pending);
    const found = await items.feedsWithArticles();
    t.ok(found.has(withOne), 'the feed with records is named');
    t.notOk(found.has(itemsOnly), 'a feed with items but no article record is not');
  });
}
