import t from 'tap';
import { contentHash, identifyItems, identityUrl, itemKey, itemKeys, sourceHashOf } from '../../src/domain/item-identity.js';
import type { ParsedItem } from '../../src/domain/item.js';

const item = (fields: Partial<ParsedItem> = {}): ParsedItem => ({
  url: 'https://example.com/posts/1',
  title: 'First post',
  description_text: 'Hello',
  description_html: '<p>Hello</p>',
  thumbnail: null,
  authors: [{ name: 'Ada' }],
  date_published: '2024-03-05T06:07:08.000Z',
  categories: [],
  enclosures: [],
  ...fields,
});

t.test('a source hash is SHA-256 in base64url, as every release before stored it', async (t) => {
  // A stored hash that no longer matches makes every item of a changed document be written again.
  t.equal(sourceHashOf('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0', 'the FIPS 180-2 test vector "abc"');
  // The digest of the bytes C3 A9 (Latin-1's E9 would give 3i4zHYka…).
  t.equal(sourceHashOf('é'), 'SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw_biumnEw', 'text is hashed as its UTF-8 bytes');
  t.not(sourceHashOf('e\u0301'), sourceHashOf('é'), 'not normalised: a changed source is a changed source');
});

t.test('the same article with different utm tags is one item', async (t) => {
  const plain = itemKey(item({ url: 'https://example.com/posts/1' }));
  t.equal(itemKey(item({ url: 'https://example.com/posts/1?utm_source=rss&utm_medium=feed' })), plain);
  t.equal(itemKey(item({ url: 'https://example.com/posts/1?utm_campaign=spring' })), plain);
  t.equal(itemKey(item({ url: 'https://example.com/posts/1?fbclid=abc' })), plain);
  t.equal(itemKey(item({ url: 'https://example.com/posts/1?gclid=abc&mc_cid=1&mc_eid=2' })), plain);
});

t.test('tracking tags are dropped without changing how the rest of the query is written', async (t) => {
  // The same article shared with and without tags must be one item, whatever its own query holds.
  for (const url of ['https://example.com/search?q=a%20b', 'https://example.com/p?ids=1,2', 'https://example.com/p?tag=caf%C3%A9&x=~y']) {
    t.equal(identityUrl(`${url}&utm_source=rss`), identityUrl(url), url);
    t.equal(identityUrl(url.replace('?', '?utm_medium=feed&')), identityUrl(url), url);
    t.equal(itemKey(item({ url: `${url}&utm_source=rss` })), itemKey(item({ url })), url);
  }
});

t.test('query parameters that are not tracking tags tell articles apart', async (t) => {
  t.not(itemKey(item({ url: 'https://example.com/view?id=1' })), itemKey(item({ url: 'https://example.com/view?id=2' })));
  t.equal(identityUrl('https://example.com/view?id=1&utm_source=x'), 'https://example.com/view?id=1');
  t.equal(identityUrl('https://example.com/view?utm_source=x&id=1'), 'https://example.com/view?id=1');
  // a parameter that merely contains "utm" is the site's own
  t.equal(identityUrl('https://example.com/view?xutm_source=1'), 'https://example.com/view?xutm_source=1');
});

t.test('a link differing only by its fragment is the same item', async (t) => {
  t.equal(identityUrl('https://example.com/posts/1#comments'), 'https://example.com/posts/1');
  t.equal(itemKey(item({ url: 'https://example.com/posts/1#comments' })), itemKey(item({ url: 'https://example.com/posts/1' })));
});

t.test('an unparsable link is kept as given, trimmed', async (t) => {
  t.equal(identityUrl('  /relative/path?utm_source=x '), '/relative/path?utm_source=x');
  t.equal(itemKey(item({ url: 'not a url' })), 'u:not a url');
});

t.test('a guid identifies an item even when its link changes', async (t) => {
  const a = itemKey(item({ id: 'tag:example.com,2024:1', url: 'https://example.com/a' }));
  const b = itemKey(item({ id: ' tag:example.com,2024:1 ', url: 'https://example.com/b' }));
  t.equal(a, 'g:tag:example.com,2024:1');
  t.equal(b, a);
});

t.test('a blank guid falls back to the link', async (t) => {
  t.equal(itemKey(item({ id: '   ', url: 'https://example.com/a?utm_source=x' })), 'u:https://example.com/a');
});

t.test('an item with neither guid nor link is known by what it says', async (t) => {
  const bare = item({ url: '', title: 'Note', description_html: '<p>Body</p>' });
  const key = itemKey(bare);
  t.match(key, /^h:[A-Za-z0-9_-]{43}$/);
  t.equal(itemKey({ ...bare, authors: [], date_published: null }), key, 'same title and body, same item');
  t.not(itemKey({ ...bare, title: 'Other note' }), key);
  t.not(itemKey({ ...bare, description_html: '<p>Other</p>' }), key);
});

t.test('refreshing the same document gives the same keys and hashes', async (t) => {
  const first = item({ id: 'x' });
  const again = structuredClone(first);
  t.equal(itemKey(again), itemKey(first));
  t.equal(contentHash(again), contentHash(first));
});

t.test('an edit a subscriber can see changes the content hash', async (t) => {
  const base = item();
  const hash = contentHash(base);
  const edits: Partial<ParsedItem>[] = [
    { title: 'First post (updated)' },
    { url: 'https://example.com/posts/1-renamed' },
    { description_html: '<p>Hello again</p>' },
    { thumbnail: 'https://example.com/t.jpg' },
    { authors: [{ name: 'Grace' }] },
    { authors: [{ name: 'Ada' }, { name: 'Grace' }] },
    { date_published: '2024-03-06T00:00:00.000Z' },
    { date_published: null },
  ];
  for (const edit of edits) t.not(contentHash({ ...base, ...edit }), hash, JSON.stringify(edit));
});

t.test('what a subscriber never sees does not make an item changed', async (t) => {
  const base = item();
  t.equal(contentHash({ ...base, categories: ['news'] }), contentHash(base));
  t.equal(contentHash({ ...base, id: 'guid-1' }), contentHash(base));
});

t.test('items of one document that share a guid keep distinct keys: guid plus link, else guid plus place', async (t) => {
  const keys = itemKeys([
    item({ id: 'episode', url: 'https://example.com/e/1', title: 'One' }),
    item({ id: 'episode', url: 'https://example.com/e/2?utm_source=rss', title: 'Two' }),
    item({ id: 'episode', url: '', title: 'Three' }),
    item({ id: 'episode', url: '', title: 'Four' }),
    item({ id: 'other', url: 'https://example.com/e/1', title: 'Five' }),
  ]);
  t.same(
    keys,
    ['g:episode|u:https://example.com/e/1', 'g:episode|u:https://example.com/e/2', 'g:episode|#2', 'g:episode|#1', 'g:other'],
    'a guid of its own keys as before',
  );
});

t.test('an item listed twice under one guid is still one item', async (t) => {
  const linked = item({ id: 'g1', url: 'https://example.com/a' });
  const bare = item({ id: 'g2', url: '', title: 'Note' });
  const keys = itemKeys([linked, { ...linked, title: 'edited copy', url: 'https://example.com/a#top' }, bare, structuredClone(bare)]);
  t.same(
    keys,
    ['g:g1|u:https://example.com/a', 'g:g1|u:https://example.com/a', 'g:g2|#1', 'g:g2|#1'],
    'same guid and link, or same guid and content with no link',
  );
});

t.test('an item listed twice is identified once, as its first copy, in document order', async (t) => {
  const linked = item({ id: 'g1', url: 'https://example.com/a' });
  const copy = { ...linked, title: 'edited copy' };
  const other = item({ id: 'g3', url: 'https://example.com/b', title: 'Other' });
  const identified = identifyItems([linked, other, copy]);
  t.same(
    identified.map(({ item }) => item.title),
    ['First post', 'Other'],
  );
  t.same(
    identified.map(({ key }) => key),
    ['g:g1|u:https://example.com/a', 'g:g3'],
  );
});

t.test('refreshing a document with repeated guids gives the same keys, also after a new item at the top', async (t) => {
  const older = [
    item({ id: 's', url: 'https://example.com/2' }),
    item({ id: 's', url: '', title: 'b' }),
    item({ id: 's', url: '', title: 'a' }),
  ];
  const keys = itemKeys(older);
  t.same(itemKeys(structuredClone(older)), keys);
  const newer = [item({ id: 's', url: '', title: 'c' }), item({ id: 's', url: 'https://example.com/3' }), ...structuredClone(older)];
  t.same(itemKeys(newer).slice(2), keys, 'none of the older items is renumbered');
});

t.test('a document of many items under one guid is keyed in one pass', async (t) => {
  const many = Array.from({ length: 20_000 }, (_, n) =>
    item({ id: 'same', url: n % 2 === 0 ? `https://example.com/${n}` : '', title: `Item ${n}` }),
  );
  t.equal(new Set(itemKeys(many)).size, 20_000, 'every one kept');
});

t.test('a no-break space and a space read alike in an item without link or guid, and in its content hash', async (t) => {
  const spaced = item({ url: '', title: '10 km run in Paris', authors: [{ name: 'Jo Bloggs' }] });
  const noBreak = item({ url: '', title: '10\u00a0km run\u00a0 in\n\u00a0Paris', authors: [{ name: 'Jo\u00a0Bloggs' }] });
  t.equal(
    itemKey(noBreak),
    itemKey(item({ ...spaced, title: '10 km run in\nParis' })),
    'the key: no-break spaces fold as collapsed text had them',
  );
  t.equal(itemKey(item({ url: '', title: '10\u00a0km' })), itemKey(item({ url: '', title: '10 km' })));
  t.equal(
    contentHash(item({ title: '10\u00a0km', authors: [{ name: 'Jo\u00a0Bloggs' }] })),
    contentHash(item({ title: '10 km', authors: [{ name: 'Jo Bloggs' }] })),
    'no change to announce',
  );
  t.not(itemKey(item({ url: '', title: '10km' })), itemKey(item({ url: '', title: '10\u00a0km' })), 'a space is still a difference');
});
