import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';

const meta = { url: 'https://example.org/channel.cdf' };

t.test("CDF: the channel's TITLE, ABSTRACT, HREF and icon-style LOGO; each ITEM's HREF, TITLE, ABSTRACT and LASTMOD", async (t) => {
  const feed = parseFeed(
    `<?xml version="1.0"?>
<CHANNEL HREF="https://example.org/" LASTMOD="2004-04-06T23:05:43-05:00">
  <TITLE>Example &amp; channel</TITLE>
  <ABSTRACT>What it is about</ABSTRACT>
  <LOGO HREF="/wide.gif" STYLE="IMAGE-WIDE"/>
  <LOGO HREF="/icon.gif" STYLE="ICON"/>
  <ITEM HREF="/first.html" LASTMOD="2004-04-06T23:05:43-05:00">
    <TITLE>First</TITLE>
    <ABSTRACT>The first page</ABSTRACT>
  </ITEM>
  <ITEM HREF="second.html"><TITLE>Second</TITLE></ITEM>
</CHANNEL>`,
    meta,
  );
  t.equal(feed.title, 'Example & channel');
  t.equal(feed.description, 'What it is about');
  t.equal(feed.link, 'https://example.org/');
  t.equal(feed.icon, 'https://example.org/icon.gif', 'the ICON logo, not the first one');
  t.same(
    feed.items.map((item) => [item.url, item.title, item.description_text, item.date_published]),
    [
      ['https://example.org/first.html', 'First', 'The first page', '2004-04-07T04:05:43.000Z'],
      ['https://example.org/second.html', 'Second', '', null],
    ],
    'relative HREFs resolve against the document; LASTMOD is the date',
  );
});

t.test("CDF: a sub-channel's items are the channel's; names in lower case are read too", async (t) => {
  const feed = parseFeed(
    `<CHANNEL><TITLE>Top</TITLE><ITEM href="https://example.org/a"><title>A</title></ITEM>
      <CHANNEL HREF="https://example.org/section/"><TITLE>Section</TITLE>
        <ITEM HREF="https://example.org/b"><TITLE>B</TITLE></ITEM>
        <CHANNEL><ITEM HREF="https://example.org/c"><TITLE>C</TITLE></ITEM></CHANNEL>
      </CHANNEL>
    </CHANNEL>`,
    meta,
  );
  t.equal(feed.title, 'Top', "the sub-channel's title is not the feed's");
  t.same(
    feed.items.map((item) => [item.title, item.url]),
    [
      ['A', 'https://example.org/a'],
      ['B', 'https://example.org/b'],
      ['C', 'https://example.org/c'],
    ],
  );
  const based = parseFeed(
    `<CHANNEL BASE="https://example.net/site/" HREF="./"><ITEM HREF="a.html"/>
      <CHANNEL BASE="news/"><ITEM HREF="b.html"/></CHANNEL></CHANNEL>`,
    meta,
  );
  t.same(
    [based.link, ...based.items.map((item) => item.url)],
    ['https://example.net/site/', 'https://example.net/site/a.html', 'https://example.net/site/news/b.html'],
    "CDF's BASE attribute, a sub-channel's resolved against its parent's",
  );
  const logoOnly = parseFeed('<CHANNEL><LOGO HREF="https://example.org/logo.png" STYLE="IMAGE"/></CHANNEL>', meta);
  t.equal(logoOnly.icon, 'https://example.org/logo.png', 'without an ICON logo, the first logo');
});

t.test('an RSS <channel> written without the <rss> around it is read as RSS, xml:base applied once', async (t) => {
  const feed = parseFeed(
    `<channel xml:base="blog/"><title>Bare</title><link>./</link><description>No wrapper</description>
      <item><title>One</title><link>one.html</link><guid isPermaLink="false">1</guid><pubDate>Tue, 06 Apr 2004 23:05:43 GMT</pubDate></item>
    </channel>`,
    meta,
  );
  t.equal(feed.title, 'Bare');
  t.equal(feed.description, 'No wrapper');
  t.equal(feed.link, 'https://example.org/blog/');
  t.same(
    feed.items.map((item) => [item.title, item.url, item.id, item.date_published]),
    [['One', 'https://example.org/blog/one.html', '1', '2004-04-06T23:05:43.000Z']],
  );
});

t.test('an Atom Entry Document (RFC 4287 §4.1.2) is a feed of its one entry; an <entry> root outside Atom is not a feed', async (t) => {
  const feed = parseFeed(
    `<?xml version="1.0"?>
<entry xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.org/posts/">
  <title>Specifications</title>
  <id>urn:uuid:988ef5c5</id>
  <updated>2009-08-31T18:55:12Z</updated>
  <author><name>S. A. Khuba</name></author>
  <link href="specifications"/>
  <content type="html">&lt;p>The camera&lt;/p></content>
</entry>`,
    meta,
  );
  t.same(
    feed.items.map((item) => [item.title, item.id, item.url, item.authors, item.date_published, item.description_html]),
    [
      [
        'Specifications',
        'urn:uuid:988ef5c5',
        'https://example.org/posts/specifications',
        [{ name: 'S. A. Khuba' }],
        '2009-08-31T18:55:12.000Z',
        '<p>The camera</p>',
      ],
    ],
  );
  t.equal(feed.title, '', 'the document has no feed fields of its own');
  t.throws(() => parseFeed('<entry><word>feed</word><sense>nourish</sense></entry>', meta), { code: 'not_a_feed' });
});
