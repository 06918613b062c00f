import t from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { parseFeed } from '../../workers/parse-feed.js';
import { feedFixture, thrown } from './feed-fixtures.js';

const meta = { url: 'https://example.org/feed.xml' };
const isNotAFeed = (error: unknown) => error instanceof FeedmillError && error.code === 'not_a_feed';

t.test('a billion-laughs document is parsed quickly with its entities left unexpanded', async (t) => {
  const started = performance.now();
  const feed = parseFeed(feedFixture('billion-laughs.xml'), meta);
  t.ok(performance.now() - started < 1000, 'under a second');
  t.equal(feed.title, '&lol9;', 'the entity reference stays as written');
  t.ok((feed.items[0]?.description_html.length ?? Infinity) < 100, 'nothing grew');
});

t.test('an XXE document is rejected without reading the file', async (t) => {
  const error = thrown(() => parseFeed(feedFixture('xxe.xml'), meta));
  t.ok(isNotAFeed(error), 'rejected as not_a_feed');
  t.match(error instanceof Error ? error.message : '', /external entity/, 'the message says why');
  t.notMatch(error instanceof Error ? error.message : '', /root:/, 'no file content leaks into the message');
});

t.test('entities declared in the DTD are not expanded, while XML, numeric and HTML entities are', async (t) => {
  const feed = parseFeed(feedFixture('internal-entity.xml'), meta);
  t.equal(feed.title, 'T &secret;');
  t.equal(feed.items[0]?.title, 'Item &secret; & © é');
});

t.test('the HTTP charset decodes a latin1 document', async (t) => {
  const body = Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>Caf\u00e9</title></channel></rss>', 'latin1');
  t.equal(parseFeed(body, { ...meta, contentType: 'text/xml; charset=ISO-8859-1' }).title, 'Café');
});

t.test('the XML declaration decodes a document when the header names no charset', async (t) => {
  const body = Buffer.from(
    '<?xml version="1.0" encoding="windows-1252"?><rss version="2.0"><channel><title>\u201cquoted\u201d \u20ac</title></channel></rss>',
    'utf8',
  );
  const cp1252 = Buffer.from(
    [...'<?xml version="1.0" encoding="windows-1252"?><rss version="2.0"><channel><title>']
      .map((c) => c.charCodeAt(0))
      .concat(
        [0x93, 0x71, 0x94, 0x20, 0x80],
        [...'</title></channel></rss>'].map((c) => c.charCodeAt(0)),
      ),
  );
  t.not(parseFeed(body, meta).title, '', 'sanity: the UTF-8 spelling is readable');
  t.equal(parseFeed(cp1252, { ...meta, contentType: 'application/rss+xml' }).title, '\u201cq\u201d \u20ac');
});

t.test('a byte-order mark wins over a contradicting header', async (t) => {
  const body = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('<rss version="2.0"><channel><title>Zoë</title></channel></rss>', 'utf8'),
  ]);
  t.equal(parseFeed(body, { ...meta, contentType: 'text/xml; charset=iso-8859-1' }).title, 'Zoë');
});

t.test('a UTF-16 document with a BOM is decoded', async (t) => {
  const body = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>Wide</title></channel></rss>', 'utf16le'),
  ]);
  t.equal(parseFeed(body, meta).title, 'Wide');
});

t.test('whitespace and garbage before the XML declaration are tolerated', async (t) => {
  t.equal(
    parseFeed('\n\n  junk\u0000<?xml version="1.0"?><rss version="2.0"><channel><title>ok</title></channel></rss>', meta).title,
    'ok',
  );
});

t.test('characters that XML forbids are removed from text', async (t) => {
  t.equal(parseFeed('<rss version="2.0"><channel><title>a\u0001b\u000Cc</title></channel></rss>', meta).title, 'abc');
});

t.test('item HTML is sanitised: no scripts, styles, frames, objects, handlers or unsafe URLs', async (t) => {
  const evil = [
    '<p style="x" onmouseover="a()">ok</p>',
    '<script>alert(1)</script>',
    '<style>body{}</style>',
    '<iframe src="https://x"></iframe>',
    '<object data="x"></object>',
    '<a href="javascript:alert(1)">j</a>',
    '<a href="data:text/html,hi">d</a>',
    '<img src="data:text/html;base64,xx">',
    '<img src="data:image/png;base64,iVBOR" alt="dot">',
    '<svg onload="a()"></svg>',
  ].join('');
  const body = `<rss version="2.0"><channel><item><description><![CDATA[${evil}]]></description></item></channel></rss>`;
  const html = parseFeed(body, meta).items[0]?.description_html ?? '';
  t.notMatch(html, /script|style|iframe|object|onmouseover|onload|javascript:|data:text|svg/i);
  t.match(html, /<p>ok<\/p>/, 'ordinary formatting survives');
  t.match(html, /<img alt="dot" \/>/, 'a data: image loses its src, keeps its alt');
});

t.test('a deeply nested document fails fast instead of exhausting the stack', async (t) => {
  const body = `<rss version="2.0"><channel>${'<x>'.repeat(5000)}${'</x>'.repeat(5000)}</channel></rss>`;
  const started = performance.now();
  try {
    parseFeed(body, meta);
  } catch (error) {
    t.ok(isNotAFeed(error), 'a failure is reported as not_a_feed');
  }
  t.ok(performance.now() - started < 1000);
});
