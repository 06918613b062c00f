import t from 'tap';
import parseFeedTask from '../../workers/parse-feed-task.js';
import { parseFeed } from '../../workers/parse-feed.js';

const meta = { url: 'https://example.org/feed.xml' };
const media = 'xmlns:m="http://search.yahoo.com/mrss/"';
const itunes = 'xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"';
const dcterms = 'xmlns:dt="http://purl.org/dc/terms/" xmlns:d="http://purl.org/dc/elements/1.1/"';
const rssItem = (item: string, ns = ''): ReturnType<typeof parseFeed>['items'][number] | undefined =>
  parseFeed(`<rss version="2.0" ${ns}><channel><title>T</title><item>${item}</item></channel></rss>`, meta).items[0];
const atomEntry = (entry: string, ns = ''): ReturnType<typeof parseFeed>['items'][number] | undefined =>
  parseFeed(`<feed xmlns="http://www.w3.org/2005/Atom" ${ns}><title>T</title><entry>${entry}</entry></feed>`, meta).items[0];

t.test(
  'Media RSS: a media:group nests content and thumbnails; title, description and category fill in for missing item fields',
  async (t) => {
    const item = rssItem(
      `<m:group><m:content url="https://example.org/v.mp4" type="video/mp4"><m:title>Clip</m:title></m:content><m:content url="https://example.org/p.jpg" medium="image"/><m:description type="html">&lt;b&gt;About&lt;/b&gt;</m:description><m:category>Film</m:category></m:group>`,
      media,
    );
    t.equal(item?.thumbnail, 'https://example.org/p.jpg', 'an image media:content inside the group');
    t.equal(item?.title, 'Clip', 'media:title from inside the group, as there is no <title>');
    t.equal(item?.description_html, '<b>About</b>', 'media:description type="html"');
    t.same(item?.categories, ['Film']);
    const own = rssItem(
      `<title>Own</title><description>Own text</description><category>News</category><m:title>Media</m:title><m:description>Media text</m:description><m:category>Film</m:category><m:thumbnail url="https://example.org/t.jpg"/>`,
      media,
    );
    t.equal(own?.title, 'Own', "the item's own title wins");
    t.equal(own?.description_text, 'Own text', "the item's own description wins");
    t.same(own?.categories, ['News'], "the item's own categories win");
    t.equal(own?.thumbnail, 'https://example.org/t.jpg');
    t.equal(atomEntry(`<m:group><m:title>In Atom</m:title></m:group>`, media)?.title, 'In Atom', 'in Atom entries too');
  },
);

t.test(
  'iTunes: a nested itunes:category gives the category and its subcategory, in the feed categories as the corpus lists them',
  async (t) => {
    const feed = parseFeed(
      `<rss version="2.0" ${itunes} xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>P</title><category>Own</category>` +
        '<it:keywords>alpha, beta</it:keywords><it:category text="Society &amp; Culture"/>' +
        '<it:category text="Tech"><it:category text="Gadgets"/></it:category>' +
        '<it:Category text="Arts"><it:category text="Design"/><other text="not a category"/></it:Category>' +
        '<dc:subject>Subject</dc:subject></channel></rss>',
      meta,
    );
    t.same(
      feed.categories,
      ['Own', 'alpha', 'beta', 'Society & Culture', 'Tech', 'Gadgets', 'Arts', 'Design', 'Subject'],
      "gofeed's order: <category>, keywords, iTunes categories with their subcategories, dc:subject",
    );
    t.equal(
      parseFeed('<rss version="2.0"><channel><title>P</title></channel></rss>', meta).categories,
      undefined,
      'none when the feed has none',
    );
    t.same(
      parseFeed(
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><category term="t1" label="Label One"/><category term="term2"/></feed>',
        meta,
      ).categories,
      ['Label One', 'term2'],
      'Atom feed categories: the label, else the term',
    );
  },
);

t.test('iTunes: image href, summary then subtitle as the description, author, names in any case', async (t) => {
  const item = rssItem(
    '<title>E</title><it:image href="https://example.org/cover.jpg"/><it:subtitle>Sub</it:subtitle><it:author>Host</it:author>',
    itunes,
  );
  t.equal(item?.thumbnail, 'https://example.org/cover.jpg');
  t.equal(item?.description_text, 'Sub', 'itunes:subtitle when there is neither description nor summary');
  t.same(item?.authors, [{ name: 'Host' }]);
  t.equal(
    rssItem('<it:subtitle>Sub</it:subtitle><it:summary>Sum</it:summary>', itunes)?.description_text,
    'Sum',
    'the summary before the subtitle',
  );
  const upper = rssItem(
    '<it:Summary>Upper</it:Summary><it:Author>Caps</it:Author><it:IMAGE href="https://example.org/u.jpg"/>',
    'xmlns:it="http://www.itunes.com/DTDs/Podcast-1.0.dtd"',
  );
  t.equal(upper?.description_text, 'Upper', 'itunes:Summary in a namespace URI spelled in capitals');
  t.same(upper?.authors, [{ name: 'Caps' }]);
  t.equal(upper?.thumbnail, 'https://example.org/u.jpg');
});

t.test('Dublin Core and DC Terms dates: dc:date, dcterms:issued and created before modified; pubDate first', async (t) => {
  t.equal(rssItem('<d:date>2024-01-02T03:04:05Z</d:date>', dcterms)?.date_published, '2024-01-02T03:04:05.000Z');
  t.equal(
    rssItem('<dt:modified>2024-03-01T00:00:00Z</dt:modified><dt:issued>2024-02-01T00:00:00Z</dt:issued>', dcterms)?.date_published,
    '2024-02-01T00:00:00.000Z',
  );
  t.equal(rssItem('<dt:created>2024-02-02T00:00:00Z</dt:created>', dcterms)?.date_published, '2024-02-02T00:00:00.000Z');
  t.equal(
    rssItem('<dt:modified>2024-03-01T00:00:00Z</dt:modified>', dcterms)?.date_published,
    '2024-03-01T00:00:00.000Z',
    'modified only when nothing else says',
  );
  t.equal(
    rssItem('<pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate><d:date>2024-05-05T00:00:00Z</d:date>', dcterms)?.date_published,
    '2024-01-01T00:00:00.000Z',
  );
  t.equal(
    atomEntry('<dt:issued>2024-02-01T00:00:00Z</dt:issued>', dcterms)?.date_published,
    '2024-02-01T00:00:00.000Z',
    'in Atom, when there is neither published nor updated',
  );
});

t.test('Atom: a link without rel is the alternate; a web page wins over another type; published over updated', async (t) => {
  t.equal(atomEntry('<link href="https://example.org/a"/>')?.url, 'https://example.org/a');
  t.equal(
    atomEntry(
      '<link rel="alternate" type="audio/mpeg" href="https://example.org/a.mp3"/><link rel="alternate" type="text/html" href="https://example.org/page"/>',
    )?.url,
    'https://example.org/page',
  );
  t.equal(
    atomEntry(
      '<link rel="alternate" href="https://example.org/first"/><link rel="alternate" type="text/html" href="https://example.org/second"/>',
    )?.url,
    'https://example.org/first',
  );
  t.equal(
    atomEntry('<updated>2024-03-01T00:00:00Z</updated><published>2024-01-01T00:00:00Z</published>')?.date_published,
    '2024-01-01T00:00:00.000Z',
  );
  t.equal(atomEntry('<updated>2024-03-01T00:00:00Z</updated>')?.date_published, '2024-03-01T00:00:00.000Z');
});

t.test('Atom type="text" is literal: an escaped <blink> is text, not markup', async (t) => {
  const entry = atomEntry('<title type="text">&lt;blink&gt; tag</title><content type="text">Use &lt;blink&gt; &amp; weep</content>');
  t.equal(entry?.title, '<blink> tag');
  t.equal(entry?.description_html, 'Use &lt;blink&gt; &amp; weep');
  t.equal(entry?.description_text, 'Use <blink> & weep');
});

t.test('RSS 1.0: rdf:about is the item id when there is no guid, under any prefix', async (t) => {
  const feed = parseFeed(
    '<r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel r:about="https://example.org/"><title>T</title></channel><item r:about="https://example.org/1"><title>One</title><link>https://example.org/1</link></item></r:RDF>',
    meta,
  );
  t.equal(feed.items[0]?.id, 'https://example.org/1');
});

t.test('xml:base at every level, inside the HTTP Content-Location as the document base', async (t) => {
  const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="feed/"><title>T</title><entry xml:base="entry/"><link href="page"/><content type="html" xml:base="content/">&lt;a href="x"&gt;x&lt;/a&gt;</content></entry></feed>`;
  const viaLocation = parseFeed(atom, { url: 'https://fetched.example/feeds/atom', contentLocation: '/real/atom.xml' }).items[0];
  t.equal(viaLocation?.url, 'https://fetched.example/real/feed/entry/page', 'Content-Location, then the feed, then the entry');
  t.match(
    viaLocation?.description_html ?? '',
    /href="https:\/\/fetched.example\/real\/feed\/entry\/content\/x"/,
    'and the content element itself',
  );
  t.equal(
    parseFeed(atom, { url: 'https://fetched.example/feeds/atom' }).items[0]?.url,
    'https://fetched.example/feeds/feed/entry/page',
    'without it, the fetched URL',
  );
  t.equal(
    parseFeed(atom, { url: 'https://fetched.example/feeds/atom', contentLocation: 'javascript:alert(1)' }).items[0]?.url,
    'https://fetched.example/feeds/feed/entry/page',
    'a Content-Location that is no web address is ignored',
  );
  const rss =
    '<rss version="2.0" xml:base="https://a.example/r/"><channel xml:base="c/"><title>T</title><item xml:base="i/"><link>l</link></item></channel></rss>';
  t.equal(parseFeed(rss, { url: 'https://fetched.example/' }).items[0]?.url, 'https://a.example/r/c/i/l', 'RSS: root, channel and item');
});

t.test("an empty xml:base is the base around it: the document's own address at the top (RFC 3986 §5.2.2)", async (t) => {
  const rss = parseFeed(
    '<rss version="2.0" xml:base=""><channel xml:base=""><title>T</title><link>/</link><item xml:base=""><link>/posts/1</link><enclosure url="/a.mp3" type="audio/mpeg"/></item></channel></rss>',
    meta,
  );
  t.same(
    [rss.link, rss.items[0]?.url, rss.items[0]?.enclosures[0]?.url],
    ['https://example.org/', 'https://example.org/posts/1', 'https://example.org/a.mp3'],
    'RSS: root-relative links on every level',
  );
  t.equal(
    parseFeed(
      '<feed xmlns="http://www.w3.org/2005/Atom" xml:base=""><title>T</title><entry xml:base=" "><link href="/e/1"/></entry></feed>',
      meta,
    ).items[0]?.url,
    'https://example.org/e/1',
    'Atom, a blank one too',
  );
  t.equal(
    parseFeed('<rss version="2.0" xml:base="https://a.example/x/"><channel xml:base=""><item><link>y</link></item></channel></rss>', meta)
      .items[0]?.url,
    'https://a.example/x/y',
    "inside another xml:base, that one's",
  );
  t.equal(
    parseFeed('<CHANNEL BASE="" HREF="/"><ITEM HREF="/c/1"><TITLE>C</TITLE></ITEM></CHANNEL>', meta).items[0]?.url,
    'https://example.org/c/1',
    "CDF's BASE the same",
  );
});

t.test('the pool task passes Content-Location through to the parser', async (t) => {
  const body = new TextEncoder().encode('<rss version="2.0"><channel><title>T</title><item><link>l</link></item></channel></rss>');
  const result = parseFeedTask({ body, url: 'https://fetched.example/x/feed', contentLocation: 'https://real.example/y/feed' });
  t.equal(result.ok ? result.feed.items[0]?.url : result.message, 'https://real.example/y/l');
});

t.test("FeedBurner: feedburner:origLink is kept as the item's original_url, its <link> still the url", async (t) => {
  const feedburner = 'xmlns:fb="http://rssnamespace.org/feedburner/ext/1.0"';
  const rss = rssItem(
    '<link>https://feeds.feedburner.com/~r/x/~3/abc/story</link><fb:origLink>https://example.org/story</fb:origLink>',
    feedburner,
  );
  t.equal(rss?.url, 'https://feeds.feedburner.com/~r/x/~3/abc/story');
  t.equal(rss?.original_url, 'https://example.org/story');
  const atom = atomEntry('<link href="https://feeds.feedburner.com/~r/x/~3/def/entry"/><fb:origLink>/entry</fb:origLink>', feedburner);
  t.equal(atom?.original_url, 'https://example.org/entry', 'resolved against the document');
  t.notOk(rssItem('<link>https://example.org/plain</link>')?.original_url, 'absent without origLink');
  t.notOk(
    rssItem('<link>https://example.org/s</link><fb:origLink>javascript:alert(1)</fb:origLink>', feedburner)?.original_url,
    'only http(s) addresses',
  );
});

t.test('iTunes: an image given by a url attribute or by itunes:link rel="image"; itunes:category on an item', async (t) => {
  const byUrl = parseFeed(
    `<rss version="2.0" ${itunes}><channel><title>P</title><it:image url="/cover.png"/><item><it:image url="https://example.org/e.png"></it:image></item></channel></rss>`,
    meta,
  );
  t.equal(byUrl.icon, 'https://example.org/cover.png', 'the channel image, resolved');
  t.equal(byUrl.items[0]?.thumbnail, 'https://example.org/e.png', 'the episode image');
  const byLink = parseFeed(
    `<rss version="2.0" ${itunes}><channel><title>P</title><it:link rel="image" type="image/jpeg" href="https://example.org/logo.jpg"/>` +
      `<item><it:link rel="alternate" href="https://example.org/no.jpg"/><it:link rel="image" href="https://example.org/ep.jpg"/></item></channel></rss>`,
    meta,
  );
  t.equal(byLink.icon, 'https://example.org/logo.jpg');
  t.equal(byLink.items[0]?.thumbnail, 'https://example.org/ep.jpg', 'only the link whose rel is image');
  t.same(
    rssItem('<category>Own</category><it:category text="Technology"><it:category text="Gadgets"/></it:category>', itunes)?.categories,
    ['Own', 'Technology', 'Gadgets'],
    "after the item's own categories",
  );
});

t.test('RSS: the full text as inline XHTML (xhtml:body, or body without its namespace) or escaped (fullitem)', async (t) => {
  const xhtml = 'xmlns:x="http://www.w3.org/1999/xhtml"';
  const inline = rssItem('<description>Short</description><x:body><p>Full &amp; <a href="/more">more</a></p></x:body>', xhtml);
  t.equal(inline?.description_html, '<p>Full &amp; <a href="https://example.org/more">more</a></p>', 'kept as markup, links resolved');
  t.equal(inline?.description_text, 'Full & more');
  t.equal(rssItem('<body><p>No namespace</p></body>')?.description_html, '<p>No namespace</p>');
  t.equal(rssItem('<fullitem>&lt;p&gt;Escaped&lt;/p&gt;</fullitem>')?.description_html, '<p>Escaped</p>');
  t.equal(
    rssItem('<body><b>safe</b><script>alert(1)</script> text</body>')?.description_html,
    '<b>safe</b> text',
    'sanitised like every other body',
  );
  t.equal(
    rssItem('<x:body><p>Inline</p></x:body><content:encoded>&lt;p&gt;Encoded&lt;/p&gt;</content:encoded>', xhtml)?.description_html,
    '<p>Encoded</p>',
    'content:encoded first',
  );
});

t.test("Atom 0.3's issued gives way to Atom 1.0's published, in either order", async (t) => {
  for (const entry of [
    '<issued>2004-01-01T00:00:00Z</issued><published>2010-01-01T00:00:00Z</published>',
    '<published>2010-01-01T00:00:00Z</published><issued>2004-01-01T00:00:00Z</issued>',
  ]) {
    t.equal(atomEntry(entry)?.date_published, '2010-01-01T00:00:00.000Z', entry);
  }
  t.equal(atomEntry('<issued>2004-01-01T00:00:00Z</issued>')?.date_published, '2004-01-01T00:00:00.000Z', 'issued alone');
});

t.test("the names Atom had while it was drafted, and UserLand's RSS namespaces, are read as the format's own", async (t) => {
  for (const uri of ['http://purl.org/echo/', 'http://purl.org/pie/', 'http://example.com/necho', 'http://example.com/newformat#']) {
    const feed = parseFeed(`<feed version="0.3" xmlns="${uri}"><title>Draft</title><entry><title>E</title></entry></feed>`, meta);
    t.same([feed.title, feed.items[0]?.title], ['Draft', 'E'], uri);
  }
  for (const uri of ['http://backend.userland.com/rss', 'http://backend.userland.com/rss2', 'http://backend.userland.com/RSS2.1']) {
    const feed = parseFeed(
      `<rss xmlns="${uri}"><channel><description>About</description><item><title>I</title></item></channel></rss>`,
      meta,
    );
    t.same([feed.description, feed.items[0]?.title], ['About', 'I'], uri);
  }
});

t.test("an entry that names no author has its source's, else the feed's (RFC 4287 §4.2.1, JSON Feed 1.1)", async (t) => {
  const atom = parseFeed(
    '<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><title>own</title><author><name>Own</name></author></entry>' +
      '<entry><title>copied</title><source><author><name>Source</name></author></source></entry>' +
      '<entry><title>none</title></entry><author><name>Feed One</name></author><author><email>two@example.org</email></author></feed>',
    meta,
  );
  t.same(
    atom.items.map((item) => item.authors.map((author) => author.name)),
    [['Own'], ['Source'], ['Feed One', 'two@example.org']],
    'the feed authors apply even when written after the entries',
  );
  const json = parseFeed(
    JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      authors: [{ name: 'Feed Author' }],
      items: [
        { id: '1', content_text: 'a', authors: [{ name: 'Item Author' }] },
        { id: '2', content_text: 'b', date_modified: '2024-02-03T04:05:06Z' },
      ],
    }),
    meta,
  );
  t.same(
    json.items.map((item) => [item.authors.map((author) => author.name), item.date_published]),
    [
      [['Item Author'], null],
      [['Feed Author'], '2024-02-03T04:05:06.000Z'],
    ],
    "JSON Feed: the feed's authors, and date_modified when there is no date_published",
  );
  t.same(
    parseFeed(
      JSON.stringify({ version: 'https://jsonfeed.org/version/1', title: 'J', author: { name: 'Old' }, items: [{ id: '1' }] }),
      meta,
    ).items[0]?.authors,
    [{ name: 'Old' }],
    "JSON Feed 1.0's author",
  );
});

t.test("Atom's elements inside RSS fill in for the missing RSS ones, in item and channel", async (t) => {
  const atom03 = 'xmlns:a="http://purl.org/atom/ns#"';
  const atom10 = 'xmlns:a="http://www.w3.org/2005/Atom"';
  const item = rssItem(
    '<a:title>Atom title</a:title><a:summary>Atom summary</a:summary><a:id>urn:uuid:1</a:id><a:updated>2024-01-05T00:00:00Z</a:updated>',
    atom10,
  );
  t.same(
    [item?.title, item?.description_text, item?.id, item?.date_published],
    ['Atom title', 'Atom summary', 'urn:uuid:1', '2024-01-05T00:00:00.000Z'],
  );
  t.equal(rssItem('<a:created>2024-01-01T00:00:00Z</a:created>', atom03)?.date_published, '2024-01-01T00:00:00.000Z', 'Atom 0.3 created');
  t.equal(rssItem('<a:issued>2024-01-02T00:00:00Z</a:issued>', atom03)?.date_published, '2024-01-02T00:00:00.000Z', 'Atom 0.3 issued');
  t.equal(
    rssItem('<a:modified>2024-01-03T00:00:00Z</a:modified>', atom03)?.date_published,
    '2024-01-03T00:00:00.000Z',
    'Atom 0.3 modified',
  );
  const own = rssItem('<title>Own</title><guid>own-id</guid><a:title>Atom</a:title><a:id>atom-id</a:id>', atom10);
  t.same([own?.title, own?.id], ['Own', 'own-id'], "the item's own elements win");
  const channel = parseFeed(
    `<rss version="2.0" ${atom10}><channel><a:title>Atom channel</a:title><a:subtitle>About</a:subtitle><a:logo>/logo.png</a:logo>` +
      '<a:category term="t" label="Label"/><image><url>/image.png</url></image></channel></rss>',
    meta,
  );
  t.same(
    [channel.title, channel.description, channel.icon, channel.categories],
    ['Atom channel', 'About', 'https://example.org/image.png', ['Label']],
    'a logo only when there is no other image',
  );
  t.equal(
    parseFeed(`<rss version="2.0" ${atom10}><channel><image><url>/image.png</url></image><a:icon>/icon.png</a:icon></channel></rss>`, meta)
      .icon,
    'https://example.org/icon.png',
    'an Atom icon before the RSS image: it is the one made to be an icon',
  );
});

t.test('Dublin Core inside Atom, and Dublin Core 1.0, fill in for the missing elements', async (t) => {
  for (const version of ['1.0', '1.1']) {
    const dc = `xmlns:dc="http://purl.org/dc/elements/${version}/"`;
    const feed = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom" ${dc}><dc:title>DC feed</dc:title><dc:description>DC about</dc:description><dc:subject>Topic</dc:subject>` +
        '<entry><dc:title>DC entry</dc:title><dc:description>DC summary</dc:description><dc:identifier>urn:dc:1</dc:identifier>' +
        '<dc:subject>Entry topic</dc:subject><dc:creator>Writer</dc:creator><dc:date>2024-02-01T00:00:00Z</dc:date></entry></feed>',
      meta,
    );
    const entry = feed.items[0];
    t.same(
      [feed.title, feed.description, feed.categories, entry?.title, entry?.description_text, entry?.id, entry?.categories],
      ['DC feed', 'DC about', ['Topic'], 'DC entry', 'DC summary', 'urn:dc:1', ['Entry topic']],
      `Dublin Core ${version}`,
    );
    t.same([entry?.authors, entry?.date_published], [[{ name: 'Writer' }], '2024-02-01T00:00:00.000Z'], `Dublin Core ${version}`);
  }
  t.equal(
    atomEntry('<created>2024-03-01T00:00:00Z</created><updated>2024-04-01T00:00:00Z</updated>')?.date_published,
    '2024-03-01T00:00:00.000Z',
    "Atom 0.3's created before updated",
  );
});

t.test('RSS 0.90 and 1.0: the image beside the channel is the feed icon', async (t) => {
  const feed = parseFeed(
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">' +
      '<channel><title>Old</title></channel><image><url>/old.gif</url></image><item><title>I</title></item></rdf:RDF>',
    meta,
  );
  t.same([feed.title, feed.icon, feed.items.length], ['Old', 'https://example.org/old.gif', 1]);
});

t.test("a link relation written as IANA's IRI, or in capitals, is the registered relation", async (t) => {
  const iana = 'http://www.iana.org/assignments/relation/';
  t.equal(
    parseFeed(`<feed xmlns="http://www.w3.org/2005/Atom"><link rel="${iana}alternate" href="https://example.org/site"/></feed>`, meta).link,
    'https://example.org/site',
  );
  const entry = atomEntry(
    `<link rel="${iana}enclosure" href="https://example.org/a.mp3" type="audio/mpeg"/><link rel="Alternate" href="https://example.org/e"/>`,
  );
  t.same([entry?.url, entry?.enclosures.map((enclosure) => enclosure.url)], ['https://example.org/e', ['https://example.org/a.mp3']]);
});

t.test("an RSS item that names no author has the channel's creator (dc:creator, a podcast's itunes:author)", async (t) => {
  const feed = parseFeed(
    `<rss version="2.0" ${itunes} xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>P</title><it:author>The Show</it:author>` +
      '<item><title>one</title></item><item><title>two</title><author>guest@example.org (Guest)</author></item></channel></rss>',
    meta,
  );
  t.same(
    feed.items.map((item) => item.authors.map((author) => author.name)),
    [['The Show'], ['Guest']],
  );
  t.same(
    parseFeed(
      '<rss version="2.0"><channel><managingEditor>ed@example.org (Ed)</managingEditor><item><title>x</title></item></channel></rss>',
      meta,
    ).items[0]?.authors,
    [],
    'an editor is not an author',
  );
});

t.test('an RSS <author> written as a person element gives its name, else its email', async (t) => {
  t.same(rssItem('<author><name>Jo Bloggs</name><title>Staff writer</title></author>')?.authors, [{ name: 'Jo Bloggs' }]);
  t.same(rssItem('<author><email>jo@example.org</email></author>')?.authors, [{ name: 'jo@example.org' }], 'an email alone');
  t.same(
    rssItem('<dc:creator><name>Ed</name></dc:creator>', 'xmlns:dc="http://purl.org/dc/elements/1.1/"')?.authors,
    [{ name: 'Ed' }],
    'dc:creator too',
  );
  t.same(rssItem('<author><title>Staff writer</title></author>')?.authors, [], 'no name, no author: a job title is not one');
  t.same(rssItem('<author>jo@example.org (Jo)</author>')?.authors, [{ name: 'Jo' }], 'the text form as before');
});

t.test('each author is named once', async (t) => {
  t.same(atomEntry('<author><name>Bob</name></author><author><name>Alice</name></author><author><name>Bob</name></author>')?.authors, [
    { name: 'Bob' },
    { name: 'Alice' },
  ]);
  const json = (item: Record<string, unknown>): string[] | undefined =>
    parseFeed(
      JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'J', items: [{ id: '1', ...item }] }),
      meta,
    ).items[0]?.authors.map((author) => author.name);
  t.same(json({ authors: [{ name: 'B' }, { name: 'A' }, { name: 'B' }] }), ['B', 'A'], 'JSON Feed, repeated');
  t.same(json({ authors: { name: 'Single' } }), ['Single'], 'JSON Feed authors written as one object');
  t.same(
    json({ authors: [{ name: 'New' }], author: { name: 'Old' } }),
    ['New', 'Old'],
    "JSON Feed 1.1's authors and 1.0's author together",
  );
});

t.test("an item's address from its permalink guid (RSS), its id (Atom) or its external_url (JSON Feed) when it has no link", async (t) => {
  t.equal(
    rssItem('<guid>https://example.org/2024/story</guid>')?.url,
    'https://example.org/2024/story',
    'a guid is a permalink unless it says not',
  );
  t.equal(rssItem('<guid isPermaLink="false">https://example.org/2024/story</guid>')?.url, '', 'isPermaLink="false"');
  t.equal(rssItem('<guid>urn:uuid:1</guid>')?.url, '', 'a guid that is no web address is no link');
  t.equal(rssItem('<guid>https://example.org/a</guid><link>https://example.org/b</link>')?.url, 'https://example.org/b', 'the link first');
  t.equal(atomEntry('<id>https://example.org/?p=12</id><title>x</title>')?.url, 'https://example.org/?p=12');
  t.equal(atomEntry('<id>tag:example.org,2024:12</id><title>x</title>')?.url, '', 'an id that is no web address is no link');
  t.equal(
    atomEntry('<id>https://example.org/?p=12</id><link href="https://example.org/pretty"/>')?.url,
    'https://example.org/pretty',
    'the link first',
  );
  const json = parseFeed(
    JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      items: [{ id: '1', external_url: 'https://elsewhere.example/story' }],
    }),
    meta,
  );
  t.equal(json.items[0]?.url, 'https://elsewhere.example/story');
});
