import t from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { parseFeed } from '../../workers/parse-feed.js';
import parseFeedTask from '../../workers/parse-feed-task.js';
import { feedFixture, thrown } from './feed-fixtures.js';

const rss = () => parseFeed(feedFixture('rss2-quirks.xml'), { url: 'https://example.org/feed.xml' });
const atom = () => parseFeed(feedFixture('atom-quirks.xml'), { url: 'https://example.com/blog/feed.atom' });
const json = () => parseFeed(feedFixture('json-feed-1.1.json'), { url: 'https://json.example/feed.json' });

t.test('an RSS 2.0 feed gives its channel and every item in document order', async (t) => {
  const feed = rss();
  t.equal(feed.title, 'Café & Co', 'HTML named entities such as &eacute; are decoded');
  t.equal(
    feed.description,
    'News\u00a0from the café',
    'plain text, as an Atom subtitle is: markup removed, spaces folded, a no-break space kept as a title keeps it',
  );
  t.equal(feed.link, 'https://example.org/');
  t.equal(feed.icon, 'https://example.org/logo.png', 'the channel image is made absolute');
  t.same(
    feed.items.map((item) => item.title),
    ['Fish & Chips', 'No date here', 'Garbage date'],
  );
});

t.test('an RSS 2.0 item exposes the API item shape', async (t) => {
  const [item] = rss().items;
  t.ok(item);
  if (!item) return;
  t.equal(item.url, 'https://example.org/posts/1', 'a relative link is resolved against the document URL');
  t.equal(item.id, 'post-1');
  t.equal(item.date_published, '2003-06-10T04:00:00.000Z');
  t.same(item.authors, [{ name: 'Jo Bloggs' }], '"email (Name)" gives the name');
  t.same(item.categories, ['food', 'uk']);
  t.same(item.enclosures, [{ url: 'https://example.org/audio/1.mp3', type: 'audio/mpeg', length: 12345 }]);
  t.equal(item.thumbnail, 'https://example.org/img/fish.jpg', 'without media elements the first <img> is the thumbnail');
});

t.test('content:encoded is preferred to the description and comes out sanitised', async (t) => {
  const [item] = rss().items;
  const html = item?.description_html ?? '';
  t.match(html, /<p>Hello <a href="https:\/\/example.org\/about">about<\/a><\/p>/, 'links are kept and made absolute');
  t.notMatch(html, /script|iframe|onclick|javascript:/i, 'scripts, frames, handlers and javascript: URLs are removed');
  t.match(html, /<img src="https:\/\/example.org\/img\/fish.jpg"/, 'images are kept with absolute src');
  t.equal(item?.description_text, 'Hello about\nx', 'the text rendering has no tags and one line per block');
});

t.test('an RSS 2.0 item with no pubDate has no date', async (t) => {
  t.equal(rss().items[1]?.date_published, null);
});

t.test('an unparseable pubDate gives no date rather than a guessed one', async (t) => {
  t.equal(rss().items[2]?.date_published, null);
});

t.test('an entity-escaped description is decoded once into HTML', async (t) => {
  const item = rss().items[1];
  t.equal(item?.description_html, '<p>Escaped &amp; markup</p>');
  t.equal(item?.description_text, 'Escaped & markup');
});

t.test('dc:creator is read under whatever prefix the document binds Dublin Core to', async (t) => {
  t.same(rss().items[1]?.authors, [{ name: 'Sam Smith' }]);
});

t.test('the thumbnail follows gofeed precedence: itunes:image, media, image enclosure, first <img>', async (t) => {
  const items = rss().items;
  t.equal(items[1]?.thumbnail, 'https://example.org/cover.jpg', 'itunes:image beats media:thumbnail');
  t.equal(items[2]?.thumbnail, 'https://example.org/photo.jpg', 'an image media:content beats an image enclosure');
});

t.test('an Atom feed resolves links against xml:base and picks the alternate link', async (t) => {
  const feed = atom();
  t.equal(feed.title, 'Ben & Jerrys', 'an html title is rendered as text');
  t.equal(feed.link, 'https://example.com/blog/');
  t.equal(feed.icon, 'https://example.com/blog/logo.png', 'the logo stands in for a missing icon');
  const [first, second] = feed.items;
  t.equal(first?.url, 'https://example.com/blog/posts/cherry', 'rel="alternate" wins over rel="edit"');
  t.equal(second?.url, 'https://example.com/blog/posts/2', 'a link without rel is the alternate link');
  t.equal(first?.title, 'Cherry Garcia', 'an xhtml title loses its markup');
  t.same(first?.authors, [{ name: 'Ben' }, { name: 'Jerry' }]);
  t.same(first?.categories, ['Flavours']);
  t.same(first?.enclosures, [{ url: 'https://example.com/blog/audio/cherry.ogg', type: 'audio/ogg', length: 99 }]);
});

t.test('Atom xhtml content keeps its markup and resolves against its own xml:base', async (t) => {
  const [first] = atom().items;
  t.equal(first?.description_html, '<p>Look: <img src="https://cdn.example.com/cherry.jpg" alt="cherry" /></p>');
  t.equal(first?.thumbnail, 'https://cdn.example.com/cherry.jpg');
});

t.test('an Atom entry is dated by published, else by updated', async (t) => {
  const [first, second] = atom().items;
  t.equal(first?.date_published, '2024-03-01T08:00:00.000Z', 'the offset is applied');
  t.equal(second?.date_published, '2024-03-05T08:30:00.123Z', 'milliseconds survive');
});

t.test('a JSON Feed 1.1 item maps to the API item shape', async (t) => {
  const feed = json();
  t.equal(feed.title, 'JSON Things');
  t.equal(feed.icon, 'https://json.example/icon.png');
  const [item, second] = feed.items;
  t.equal(item?.id, '42', 'a numeric id becomes a string');
  t.equal(item?.description_html, '<p>The <em>answer</em></p>');
  t.equal(item?.thumbnail, 'https://json.example/42.png');
  t.equal(item?.date_published, '2020-02-02T07:02:02.000Z');
  t.same(item?.authors, [{ name: 'Deep Thought' }]);
  t.same(item?.categories, ['answers', 'numbers']);
  t.same(item?.enclosures, [{ url: 'https://json.example/42.mp3', type: 'audio/mpeg', length: 4242 }]);
  t.same(second?.authors, [{ name: 'Old Style' }], 'the JSON Feed 1.0 author is read too');
  t.equal(second?.description_text, 'Just text');
});

t.test('an RSS 1.0 (RDF) feed finds its items beside the channel', async (t) => {
  const feed = parseFeed(feedFixture('rdf-1.0.xml'), { url: 'https://rdf.example/index.rdf' });
  t.equal(feed.title, 'RDF Site');
  t.same(
    feed.items.map((item) => item.url),
    ['https://rdf.example/a', 'https://rdf.example/b'],
  );
  t.equal(feed.items[0]?.date_published, '2002-09-01T12:00:00.000Z', 'dc:date dates an item without pubDate');
  t.same(feed.items[0]?.authors, [{ name: 'Ann' }]);
});

t.test('an RSS 0.91 document with the Netscape DOCTYPE parses', async (t) => {
  const feed = parseFeed(feedFixture('rss091-netscape-doctype.xml'), { url: 'http://old.example/rss' });
  t.equal(feed.title, 'Old School');
  t.equal(feed.items[0]?.url, 'http://old.example/1');
});

t.test('documents that are not feeds are rejected with not_a_feed and say what they are', async (t) => {
  const cases: [string, string | Uint8Array, RegExp][] = [
    ['an HTML page', feedFixture('html-page.html'), /HTML page/],
    ['an empty body', '   \n', /empty document/],
    ['other XML', '<note><to>Tove</to></note>', /root element <note>/],
    ['invalid JSON', '{ "version": ', /not valid JSON/],
    ['JSON that is not a feed', '{"name": "package"}', /JSON Feed/],
    ['plain text', 'hello world', /neither XML nor JSON/],
  ];
  for (const [what, body, message] of cases) {
    const error = thrown(() => parseFeed(body, { url: 'https://example.org/' }));
    t.ok(error instanceof FeedmillError && error.code === 'not_a_feed', `${what} is not_a_feed`);
    t.match(error instanceof Error ? error.message : '', message, `${what}: the message says what arrived`);
  }
});

t.test('the pool task returns a parsed feed, or the error as data with its code', async (t) => {
  const ok = parseFeedTask({ body: feedFixture('rdf-1.0.xml'), url: 'https://rdf.example/index.rdf' });
  t.equal(ok.ok && ok.feed.items.length, 2);
  const failed = parseFeedTask({ body: new TextEncoder().encode('<html><body>hi</body></html>'), url: 'https://example.org/' });
  t.same(failed.ok ? undefined : failed.code, 'not_a_feed');
  t.match(failed.ok ? '' : failed.message, /HTML page/);
});
