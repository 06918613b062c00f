import { XMLParser, XMLValidator } from 'fast-xml-parser';
import t, { type Test } from 'tap';
import { renderRss, type RenderableFeed, type RenderableItem } from '../../src/formats/rss.js';

const item = (fields: Partial<RenderableItem> = {}): RenderableItem => ({
  key: 'g:tag:example.com,2024:1',
  url: 'https://example.com/posts/1',
  title: 'First post',
  description_html: '<p>Hello</p>',
  thumbnail: null,
  authors: [],
  date_published: '2024-03-05T06:07:08.000Z',
  categories: [],
  enclosures: [],
  ...fields,
});

const feed = (fields: Partial<RenderableFeed> = {}): RenderableFeed => ({
  title: 'Example',
  description: 'An example feed',
  link: 'https://example.com/',
  selfUrl: 'https://feeds.example.org/feeds/AAAAAAAAAAAAAAAA.xml',
  hubUrl: 'https://feeds.example.org/websub',
  icon: '',
  updatedAt: '2024-03-05T12:00:00.000Z',
  items: [item()],
  ...fields,
});

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['item', 'dc:creator', 'category', 'enclosure'].includes(name),
});

/** Renders, checks the document is well-formed XML, and returns its channel. */
function channelOf(t: Test, value: RenderableFeed): Node {
  const xml = renderRss(value);
  t.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const doc = parser.parse(xml) as { rss: Node & { channel: Node } };
  t.equal(doc.rss['@version'], '2.0');
  return doc.rss.channel;
}
const itemsOf = (channel: Node): Node[] => (channel.item as Node[] | undefined) ?? [];

const rfc822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

t.test('the channel names the feed, its site, its own hosted address and its WebSub hub', async (t) => {
  const channel = channelOf(t, feed());
  t.equal(channel.title, 'Example');
  t.equal(channel.link, 'https://example.com/');
  t.equal(channel.description, 'An example feed');
  t.same(channel['atom:link'], [
    { '@href': 'https://feeds.example.org/feeds/AAAAAAAAAAAAAAAA.xml', '@rel': 'self', '@type': 'application/rss+xml' },
    { '@href': 'https://feeds.example.org/websub', '@rel': 'hub' },
  ]);
  t.equal(channel.lastBuildDate, 'Tue, 05 Mar 2024 12:00:00 GMT');
});

t.test('a feed without a site link or description still has the required channel elements', async (t) => {
  const channel = channelOf(t, feed({ link: '', description: '' }));
  t.equal(channel.link, 'https://feeds.example.org/feeds/AAAAAAAAAAAAAAAA.xml');
  t.equal(channel.description, 'Example');
});

t.test('the declared namespaces are the ones the prefixes mean', async (t) => {
  const xml = renderRss(feed());
  t.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>/);
  t.match(xml, 'xmlns:atom="http://www.w3.org/2005/Atom"');
  t.match(xml, 'xmlns:dc="http://purl.org/dc/elements/1.1/"');
  t.match(xml, 'xmlns:media="http://search.yahoo.com/mrss/"');
});

t.test('each item has its title, link, a stable guid and its date in RFC 822', async (t) => {
  const items = itemsOf(
    channelOf(
      t,
      feed({
        items: [
          item(),
          item({
            key: 'u:https://example.com/posts/2',
            url: 'https://example.com/posts/2',
            title: 'Second',
            date_published: '2023-12-31T23:59:59.999Z',
          }),
        ],
      }),
    ),
  );
  t.equal(items.length, 2);
  const [first, second] = items;
  t.equal(first?.title, 'First post');
  t.equal(first?.link, 'https://example.com/posts/1');
  t.same(first?.guid, { '#text': 'g:tag:example.com,2024:1', '@isPermaLink': 'false' });
  t.equal(first?.description, '<p>Hello</p>', 'the HTML arrives intact once the XML is read');
  t.match(first?.pubDate, rfc822);
  t.equal(Date.parse(first?.pubDate as string), Date.parse('2024-03-05T06:07:08.000Z'), 'the same instant as the item');
  t.equal(second?.title, 'Second', 'items keep their order');
  t.equal(Date.parse(second?.pubDate as string), Date.parse('2023-12-31T23:59:59.000Z'), 'milliseconds dropped, second kept');
  t.equal(second?.pubDate, 'Sun, 31 Dec 2023 23:59:59 GMT');
});

t.test('an item date given with an offset is shown at the same instant in GMT', async (t) => {
  const [only] = itemsOf(channelOf(t, feed({ items: [item({ date_published: '2024-03-05T08:07:08+02:00' })] })));
  t.equal(only?.pubDate, 'Tue, 05 Mar 2024 06:07:08 GMT');
});

t.test('markup characters in text and addresses survive the round trip', async (t) => {
  const channel = channelOf(
    t,
    feed({
      title: 'Tom & Jerry <live>',
      items: [
        item({
          title: 'a < b && c > d',
          url: 'https://example.com/?a=1&b=2',
          key: 'u:https://example.com/?a=1&b=2',
          description_html: '<p>"quoted" & \'single\'</p>',
          authors: [{ name: "O'Brien & <Sons>" }],
        }),
      ],
    }),
  );
  t.equal(channel.title, 'Tom & Jerry <live>');
  const [only] = itemsOf(channel);
  t.equal(only?.title, 'a < b && c > d');
  t.equal(only?.link, 'https://example.com/?a=1&b=2');
  t.equal(only?.description, '<p>"quoted" & \'single\'</p>');
  t.same(only?.['dc:creator'], ["O'Brien & <Sons>"]);
  const xml = renderRss(feed({ title: 'Tom & Jerry <live>' }));
  t.match(xml, '<title>Tom &amp; Jerry &lt;live&gt;</title>');
});

t.test('characters XML forbids are dropped rather than breaking the document', async (t) => {
  const bad = 'a\u0000b\u0001c\u0008d\u000Be\u000Cf\u001Fg\uFFFEh\uFFFFi\uD800j';
  const xml = renderRss(feed({ title: bad, items: [item({ title: bad, description_html: `<p>${bad}</p>`, authors: [{ name: bad }] })] }));
  // eslint-disable-next-line no-control-regex -- looking for the characters XML 1.0 §2.2 forbids
  t.notMatch(xml, /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  const channel = channelOf(t, feed({ title: bad, items: [item({ title: bad, authors: [{ name: bad }] })] }));
  t.equal(channel.title, 'abcdefghij');
  t.equal(itemsOf(channel)[0]?.title, 'abcdefghij');
});

t.test('tabs, newlines and characters beyond the BMP are kept', async (t) => {
  const text = 'line 1\n\tline 2 — café 🎉';
  const [only] = itemsOf(channelOf(t, feed({ items: [item({ title: text })] })));
  t.equal(only?.title, text);
});

t.test('each author is a dc:creator', async (t) => {
  const [only] = itemsOf(channelOf(t, feed({ items: [item({ authors: [{ name: 'Ada' }, { name: 'Grace' }] })] })));
  t.same(only?.['dc:creator'], ['Ada', 'Grace']);
  const [none] = itemsOf(channelOf(t, feed({ items: [item({ authors: [] })] })));
  t.notOk(none && 'dc:creator' in none, 'no author, no dc:creator');
});

t.test('categories are listed', async (t) => {
  const [only] = itemsOf(channelOf(t, feed({ items: [item({ categories: ['news', 'R&D'] })] })));
  t.same(only?.category, ['news', 'R&D']);
});

t.test('an enclosure carries its address, length and type, with defaults when unknown', async (t) => {
  const [only] = itemsOf(
    channelOf(
      t,
      feed({
        items: [
          item({
            enclosures: [
              { url: 'https://example.com/a.mp3?x=1&y=2', type: 'audio/mpeg', length: 1234 },
              { url: 'https://example.com/b.bin' },
            ],
          }),
        ],
      }),
    ),
  );
  t.same(only?.enclosure, [
    { '@url': 'https://example.com/a.mp3?x=1&y=2', '@length': '1234', '@type': 'audio/mpeg' },
    { '@url': 'https://example.com/b.bin', '@length': '0', '@type': 'application/octet-stream' },
  ]);
});

t.test('a thumbnail is a media:thumbnail, and none is rendered without one', async (t) => {
  const [withThumb] = itemsOf(channelOf(t, feed({ items: [item({ thumbnail: 'https://example.com/t.jpg?w=1&h=2' })] })));
  t.same(withThumb?.['media:thumbnail'], { '@url': 'https://example.com/t.jpg?w=1&h=2' });
  const [without] = itemsOf(channelOf(t, feed()));
  t.notOk(without && 'media:thumbnail' in without);
});

t.test('an item without a link or description leaves those elements out', async (t) => {
  const [only] = itemsOf(channelOf(t, feed({ items: [item({ url: '', description_html: '' })] })));
  t.notOk(only && 'link' in only);
  t.notOk(only && 'description' in only);
  t.equal(only?.title, 'First post');
});

t.test('a feed icon becomes the channel image', async (t) => {
  const channel = channelOf(t, feed({ icon: 'https://example.com/icon.png?s=1&t=2' }));
  t.same(channel.image, { url: 'https://example.com/icon.png?s=1&t=2', title: 'Example', link: 'https://example.com/' });
  t.notOk('image' in channelOf(t, feed()), 'no icon, no image');
});

t.test('a feed without items is still a valid channel', async (t) => {
  const channel = channelOf(t, feed({ items: [] }));
  t.same(itemsOf(channel), []);
  t.equal(channel.title, 'Example');
});
