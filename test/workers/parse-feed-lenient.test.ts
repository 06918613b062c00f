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
  t.equal(feed.items[0]?.title, 'Café —… ©', 'no-break space folded like any space');
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
