import t from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { parseFeed } from '../../workers/parse-feed.js';
import { thrown } from './feed-fixtures.js';

const meta = { url: 'https://example.org/feed.xml' };
const rss = (items: string, head = ''): string => `<rss version="2.0"><channel><title>T</title>${head}${items}</channel></rss>`;

t.test('a document cut off at the end keeps every item read so far', async (t) => {
  const whole = rss('<item><title>one</title><link>https://example.org/1</link></item><item><title>two</title><description>the second');
  for (const cut of [whole.length, whole.indexOf('</channel>'), whole.indexOf('the second') + 3, whole.indexOf('<description>') + 5]) {
    const feed = parseFeed(whole.slice(0, cut), meta);
    t.same(
      feed.items.map((item) => item.title),
      ['one', 'two'],
      `cut at ${cut}`,
    );
    t.equal(feed.items[0]?.url, 'https://example.org/1');
  }
  t.equal(
    parseFeed(rss('<item><title>x</title><description>a</description>').slice(0, -20) + '<link href="https://e', meta).items[0]?.title,
    'x',
    'a tag cut off inside its attributes is dropped',
  );
});

t.test('an unescaped & in text and in attributes is read as an ampersand', async (t) => {
  const feed = parseFeed(
    rss(
      '<item><title>Fish & Chips &amp; AT&T</title><link>https://example.org/?a=1&b=2</link><enclosure url="https://example.org/a.mp3?x=1&y=2" type="audio/mpeg"/></item>',
    ),
    meta,
  );
  t.equal(feed.items[0]?.title, 'Fish & Chips & AT&T');
  t.equal(feed.items[0]?.url, 'https://example.org/?a=1&b=2');
  t.equal(feed.items[0]?.enclosures[0]?.url, 'https://example.org/a.mp3?x=1&y=2');
});

t.test('HTML named entities in XML text are decoded', async (t) => {
  const feed = parseFeed(rss('<item><title>Caf&eacute;&nbsp;&mdash;&hellip; &copy;</title></item>'), meta);
  t.equal(feed.items[0]?.title, 'Café\u00a0—… ©', 'the no-break space kept as written');
});

t.test('undeclared conventional prefixes are read as the namespace they name', async (t) => {
  const feed = parseFeed(
    rss(
      '<item><title>x</title><dc:creator>Jo</dc:creator><content:encoded><![CDATA[<p>body</p>]]></content:encoded><media:thumbnail url="https://example.org/t.jpg"/></item>',
    ),
    meta,
  );
  t.same(feed.items[0]?.authors, [{ name: 'Jo' }]);
  t.equal(feed.items[0]?.description_html, '<p>body</p>');
  t.equal(feed.items[0]?.thumbnail, 'https://example.org/t.jpg');
});

t.test('mismatched closing tags close what they can and the rest of the feed is read', async (t) => {
  const feed = parseFeed(
    rss(
      '<item><title>one</titel><link>https://example.org/1</link></item><item><title>two</title><description><p>a <b>bold</p> text</i></description></item>',
    ),
    meta,
  );
  t.same(
    feed.items.map((item) => item.title),
    ['one', 'two'],
  );
  t.equal(feed.items[0]?.url, 'https://example.org/1');
  t.match(feed.items[1]?.description_text ?? '', /a bold\s*text/);
});

t.test('a document that is not a feed is still not_a_feed, however lenient the reading', async (t) => {
  for (const body of ['<html><body><p>a page</body>', '<note><to>x</to></note>', 'plain text', '<', '<rss', '<!DOCTYPE html>']) {
    const error = thrown(() => parseFeed(body, meta));
    t.ok(error instanceof FeedmillError && error.code === 'not_a_feed', JSON.stringify(body));
  }
});

t.test('element names are read whatever their case, as gofeed and feedparser read them', async (t) => {
  const feed = parseFeed(
    '<rss version="2.0"><Channel><TiTlE>Mixed</TiTlE><Item><Title>One</Title><LINK>https://example.org/1</LINK>' +
      '<pubdate>Mon, 01 Jan 2024 00:00:00 GMT</pubdate><Description>&lt;b&gt;x&lt;/b&gt;</Description></Item>' +
      '<item><title>Two</title><PUBDATE>Tue, 02 Jan 2024 00:00:00 GMT</PUBDATE></item></Channel></rss>',
    meta,
  );
  t.equal(feed.title, 'Mixed');
  t.same(
    feed.items.map((item) => [item.title, item.url, item.date_published, item.description_html]),
    [
      ['One', 'https://example.org/1', '2024-01-01T00:00:00.000Z', '<b>x</b>'],
      ['Two', '', '2024-01-02T00:00:00.000Z', ''],
    ],
  );
  const atom = parseFeed(
    '<feed xmlns="http://www.w3.org/2005/Atom"><Title>A</Title><ENTRY><Title>E</Title><Published>2024-01-03T00:00:00Z</Published></ENTRY></feed>',
    meta,
  );
  t.same([atom.title, atom.items[0]?.title, atom.items[0]?.date_published], ['A', 'E', '2024-01-03T00:00:00.000Z'], 'Atom too');
  t.equal(
    parseFeed('<rss xmlns:d="http://purl.org/dc/elements/1.1/"><channel><item><d:Creator>Ann</d:Creator></item></channel></rss>', meta)
      .items[0]?.authors[0]?.name,
    'Ann',
    'a module element in any case',
  );
});

t.test('output a server printed before the XML declaration is skipped, PHP warnings before a WordPress feed above all', async (t) => {
  const php =
    '<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent in <b>/var/www/wp-includes/feed-rss2.php</b> on line <b>8</b><br />\n';
  const feed = parseFeed(`${php}<?xml version="1.0" encoding="UTF-8"?>${rss('<item><title>Kept</title></item>')}`, meta);
  t.same([feed.title, feed.items.map((item) => item.title)], ['T', ['Kept']]);
  const error = thrown(() => parseFeed('<br />\n<b>Fatal error</b>: out of memory', meta));
  t.ok(
    error instanceof FeedmillError && error.code === 'not_a_feed',
    'with no declaration after it, output that is not a feed is still refused',
  );
});

t.test('an item or entry left unclosed ends where the next one starts, instead of swallowing it', async (t) => {
  const feed = parseFeed(
    rss('<item><title>one</title><link>https://example.org/1</link><Item><title>two</title><item><title>three</title></item>'),
    meta,
  );
  t.same(
    feed.items.map((item) => [item.title, item.url]),
    [
      ['one', 'https://example.org/1'],
      ['two', ''],
      ['three', ''],
    ],
  );
  const atom = parseFeed('<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>a</title><entry><title>b</title></entry></feed>', meta);
  t.same(
    atom.items.map((item) => item.title),
    ['a', 'b'],
  );
  t.same(
    parseFeed(
      `<rss version="2.0" xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><it:category text="A"><it:category text="B"/></it:category></channel></rss>`,
      meta,
    ).categories,
    ['A', 'B'],
    'other elements still nest in their own kind',
  );
});

t.test("items inside a channel element left unclosed are the channel's, in document order", async (t) => {
  const feed = parseFeed(
    `<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>
      <item><title>first</title></item>
      <itunes:category text="Technology"><itunes:category text="Gadgets"/>
      <item><title>second</title></item>
      <item><title>third</title></item>
    </channel></rss>`,
    meta,
  );
  t.same(
    feed.items.map((item) => item.title),
    ['first', 'second', 'third'],
  );
  t.same(feed.categories, ['Technology', 'Gadgets'], 'the unclosed category is still read as one');
});

t.test("a stray default namespace on <rss>, a publisher's slip, is read as RSS; a known vocabulary's keeps its meaning", async (t) => {
  const feed = parseFeed(
    `<rss xmlns="https://cyber.harvard.edu/rss/rss.html" version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel><title>Slip</title><link>https://example.org/</link>
        <item><title>One</title><link>/one</link><guid isPermaLink="false">1</guid><dc:creator>Jo</dc:creator></item>
        <item><title>Two</title><link>/two</link></item>
      </channel></rss>`,
    meta,
  );
  t.equal(feed.title, 'Slip');
  t.equal(feed.link, 'https://example.org/');
  t.same(
    feed.items.map((item) => [item.title, item.url, item.id, item.authors]),
    [
      ['One', 'https://example.org/one', '1', [{ name: 'Jo' }]],
      ['Two', 'https://example.org/two', undefined, []],
    ],
    'items, their links resolved, and the prefixed vocabularies beside them',
  );
  t.equal(
    parseFeed('<RSS xmlns="urn:x-made-up"><channel><title>Caps</title></channel></RSS>', meta).title,
    'Caps',
    'any namespace no vocabulary claims, on the root whatever its case',
  );
  const atomNamespaced = parseFeed(
    '<rss xmlns="http://www.w3.org/2005/Atom" version="2.0"><channel><title>T</title><item><title>x</title></item></channel></rss>',
    meta,
  );
  t.same(atomNamespaced.items, [], "Atom's namespace is no slip: its <channel> and <item> are not RSS's");
});
