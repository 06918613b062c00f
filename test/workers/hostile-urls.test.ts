import t, { type Test } from 'tap';
import type { ParsedFeed } from '../../src/domain/item.js';
import { extractPage } from '../../workers/extract-page.js';
import { parseFeed } from '../../workers/parse-feed.js';

/**
 * Hostile URLs as they are written in markup, each with the obfuscation a browser would see
 * through: entities, tabs and line breaks inside the scheme, case, leading spaces, and the
 * schemes that run or smuggle content. Every one must vanish from every URL field.
 */
const hostile = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '   javascript:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;ava&#x09;script:alert(1)',
  'java&#9;script:alert(1)',
  'java&#10;script:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '&#x20;&#x0D;javascript:alert(1)',
  'vbscript:msgbox(1)',
  'VBScript&#x3A;msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
  'DaTa:image/png;base64,iVBORw0KGgo=',
  'file:///etc/passwd',
  'blob:https://example.org/0b6c-4c1a',
];

const meta = { url: 'https://example.org/feed.xml' };
const urlAttribute = /\s(href|src|srcset|poster|cite)="([^"]*)"/g;
const web = /^https?:\/\//i;

/** Every URL a parsed feed would store and serve is http(s) (mailto: only as a link's href), or absent. */
function assertOnlyWebUrls(t: Test, feed: ParsedFeed, what: string): void {
  const problems: string[] = [];
  const check = (field: string, value: string | null): void => {
    if (value !== null && value !== '' && !web.test(value)) problems.push(`${field} = ${JSON.stringify(value)}`);
  };
  check('feed link', feed.link);
  check('feed icon', feed.icon);
  for (const [i, item] of feed.items.entries()) {
    check(`items[${i}].url`, item.url);
    check(`items[${i}].thumbnail`, item.thumbnail);
    for (const enclosure of item.enclosures) check(`items[${i}].enclosure`, enclosure.url);
    for (const [, name, value] of item.description_html.matchAll(urlAttribute)) {
      if (!(name === 'href' && value?.startsWith('mailto:'))) check(`items[${i}] ${name ?? ''}`, value ?? '');
    }
    if (/javascript|vbscript|data:|file:|blob:|srcset/i.test(item.description_html))
      problems.push(`items[${i}].description_html = ${item.description_html}`);
  }
  t.same(problems, [], what);
}

/** An attribute value: written inside double quotes, so a `"` could not be part of it anyway. */
const descriptionHtml = (url: string): string =>
  `<p><a href="${url}">link</a> <img src="${url}" srcset="${url} 1x, https://example.org/ok.png 2x" alt="i"> ` +
  `<video poster="${url}" src="${url}"><source src="${url}"></video><audio src="${url}"></audio>` +
  `<blockquote cite="${url}">b</blockquote><q cite="${url}">q</q></p>`;

function rss(url: string): string {
  return `<?xml version="1.0"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom">
<channel><title>Hostile</title><link>${url}</link><atom:link rel="alternate" href="${url}"/><image><url>${url}</url></image>
<item><title>one</title><guid isPermaLink="false">1</guid><link>${url}</link><media:thumbnail url="${url}"/>
  <enclosure url="${url}" type="image/png" length="1"/><description><![CDATA[${descriptionHtml(url)}]]></description></item>
<item><title>two</title><guid isPermaLink="false">2</guid><atom:link rel="alternate" href="${url}"/><itunes:image href="${url}"/>
  <media:content url="${url}" medium="image"/><description>${descriptionHtml(url).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</description></item>
<item><title>three</title><guid>${url}</guid><media:group><media:content url="${url}" type="image/jpeg"/></media:group></item>
</channel></rss>`;
}

function atom(url: string): string {
  return `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Hostile</title><link href="${url}"/><icon>${url}</icon><logo>${url}</logo><id>urn:x</id>
<entry><id>urn:1</id><title>one</title><link rel="alternate" href="${url}"/><link rel="enclosure" href="${url}" type="audio/mpeg"/>
  <content type="html">${descriptionHtml(url).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</content></entry>
<entry><id>urn:2</id><title>two</title><link href="${url}"/><summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="${url}">x</a></div></summary></entry>
</feed>`;
}

for (const url of hostile) {
  t.test(`RSS: ${JSON.stringify(url)} leaves no field and no attribute`, async (t) => {
    const feed = parseFeed(rss(url), meta);
    t.equal(feed.link, '', 'channel link');
    t.equal(feed.icon, '', 'channel image');
    t.same(
      feed.items.map((item) => [item.url, item.thumbnail, item.enclosures]),
      [
        ['', null, []],
        ['', null, []],
        ['', null, []],
      ],
      'item links, thumbnails and enclosures',
    );
    t.match(feed.items[0]?.description_html, /<a>link<\/a> <img alt="i" \/>/, 'the elements stay, their URL attributes go');
    assertOnlyWebUrls(t, feed, 'no other URL survives');
  });

  t.test(`Atom: ${JSON.stringify(url)} leaves no field and no attribute`, async (t) => {
    const feed = parseFeed(atom(url), meta);
    t.same([feed.link, feed.icon], ['', '']);
    t.same(
      feed.items.map((item) => [item.url, item.thumbnail, item.enclosures]),
      [
        ['', null, []],
        ['', null, []],
      ],
    );
    assertOnlyWebUrls(t, feed, 'no other URL survives');
  });
}

/** JSON has no entities; its escapes spell the same obfuscations. */
const hostileJson = [
  'javascript:alert(1)',
  ' JAVASCRIPT:alert(1)',
  '\u006Aava\u0009script:alert(1)',
  'java\nscript:alert(1)',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:x',
  'file:///etc/passwd',
  'blob:https://example.org/x',
];

for (const url of hostileJson) {
  t.test(`JSON Feed: ${JSON.stringify(url)} leaves no field and no attribute`, async (t) => {
    const document = {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Hostile',
      home_page_url: url,
      icon: url,
      favicon: url,
      items: [
        {
          id: '1',
          url,
          image: url,
          banner_image: url,
          content_html: descriptionHtml(url.replace(/"/g, '&quot;')),
          attachments: [{ url, mime_type: 'image/png' }],
        },
      ],
    };
    const feed = parseFeed(JSON.stringify(document), meta);
    t.same([feed.link, feed.icon], ['', '']);
    t.same(
      feed.items.map((item) => [item.url, item.thumbnail, item.enclosures]),
      [['', null, []]],
    );
    assertOnlyWebUrls(t, feed, 'no other URL survives');
  });
}

t.test('a hostile URL does not hide a safe one behind it', async (t) => {
  const feed = parseFeed(
    `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>t</title><item><title>x</title><guid>1</guid>
     <media:thumbnail url="javascript:alert(1)"/><media:thumbnail url="/thumb.png"/><enclosure url="data:,x" type="audio/mpeg"/><enclosure url="/a.mp3" type="audio/mpeg"/>
     <description><![CDATA[<a href="mailto:ed@example.org">mail</a> <img src="mailto:ed@example.org">]]></description></item></channel></rss>`,
    meta,
  );
  const item = feed.items[0];
  t.equal(item?.thumbnail, 'https://example.org/thumb.png', 'the next thumbnail is taken');
  t.same(
    item?.enclosures.map((enclosure) => enclosure.url),
    ['https://example.org/a.mp3'],
  );
  t.equal(item?.description_html, '<a href="mailto:ed@example.org">mail</a> <img />', 'mailto: is a link, never an image');
});

const hostilePage = (url: string): string => `<!doctype html><html><head><title>Hostile page</title>
<link rel="icon" href="${url}"><link rel="canonical" href="${url}"><link rel="alternate" type="application/rss+xml" href="${url}">
<meta property="og:image" content="${url}">
<script type="application/ld+json">${JSON.stringify({ '@type': 'ItemList', itemListElement: [1, 2].map((n) => ({ '@type': 'ListItem', item: { '@type': 'Article', headline: `Stated article ${n}`, url: n === 1 ? url.replace(/&#?\w+;/g, '') : `/stated-${n}`, image: url.replace(/&#?\w+;/g, '') } })) })}</script>
</head><body><ul class="posts">
<li class="post"><h2><a href="/one">The first article of the page</a></h2><img src="${url}"><p class="summary">A summary with <a href="${url}">a hostile link</a> and <img src="${url}" srcset="${url} 1x"> in it.</p></li>
<li class="post"><h2><a href="/two">The second article of the page</a></h2><img src="${url}"><p class="summary">Another summary, <q cite="${url}">quoted</q>, long enough to count.</p></li>
<li class="post"><h2><a href="${url}">The third article, linked to a script</a></h2></li>
</ul></body></html>`;

for (const url of hostile) {
  t.test(`extract-page: ${JSON.stringify(url)} leaves no field and no attribute`, async (t) => {
    const page = extractPage(hostilePage(url), { url: 'https://site.example/blog/' });
    t.equal(page.icon, 'https://site.example/favicon.ico', 'the hostile icon gives way to the origin’s');
    t.equal(page.link, 'https://site.example/blog/', 'the hostile canonical gives way to the page address');
    t.same(page.feedLinks, [], 'no hostile feed link');
    t.ok(page.items.length > 0, 'the page still yields items');
    assertOnlyWebUrls(t, page, 'no URL but http(s) survives');
  });
}

// Found by the fuzzer (test/fuzz/seeds/parse-feed/empty-host.xml, extract-page/empty-host.html):
// `http://` fits the plain-URL shape but names no host, and came out as an item's URL and a page's link.
t.test('an http(s) URL with no host or an invalid one leaves no field', async (t) => {
  const feed = parseFeed(
    '<rss version="2.0"><channel><title>t</title><link>https://</link><item><title>a</title><link>http://</link>' +
      '<enclosure url="http://1.2.3.999/a.mp3" type="audio/mpeg"/></item></channel></rss>',
    { url: 'https://example.org/feed.xml' },
  );
  t.not(feed.link, 'https://', 'no feed link');
  t.equal(feed.items[0]?.url, '', 'no item URL');
  t.same(feed.items[0]?.enclosures, [], 'no enclosure');
  const teaser = (n: string) =>
    `<li><h3><a href="/${n}">Article ${n} headline</a></h3><p>Summary of ${n} with enough words to read as a teaser.</p></li>`;
  const page = extractPage(
    `<html><head><title>Notes</title><link rel="canonical" href="https://"></head><body><main><ul>${['a', 'b', 'c'].map(teaser).join('')}</ul></main></body></html>`,
    { url: 'https://example.org/notes/' },
  );
  t.equal(page.items.length, 3, 'the page is read');
  t.not(page.link, 'https://', 'the canonical link is not taken');
});
