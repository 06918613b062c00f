import fc from 'fast-check';
import t from 'tap';
import { FeedmillError } from '../../src/domain/errors.js';
import { parseFeed } from '../../workers/parse-feed.js';
import { parseXml } from '../../workers/parse-feed/xml-tree.js';

/**
 * Documents glued from the pieces XML is made of, in any order: the reader and the format
 * readers must never fail with anything but their own errors (a TypeError here would be a 500
 * from the API), and never loop.
 */
const piece = fc.constantFrom(
  '<',
  '>',
  '/',
  '/>',
  '</',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  '\r',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<?',
  '?>',
  '<!DOCTYPE x [',
  ']>',
  '<!ENTITY e "v">',
  '<!ENTITY % p SYSTEM "f">',
  '&amp;',
  '&e;',
  '&#x41;',
  '&nbsp',
  'rss',
  'channel',
  'item',
  'feed',
  'entry',
  'title',
  'description',
  'content:encoded',
  'link',
  'guid',
  'category',
  'enclosure',
  'url="/a"',
  'href="b"',
  'type="xhtml"',
  'xml:base="c/"',
  'xmlns:dc="http://purl.org/dc/elements/1.1/"',
  'dc:creator',
  'pubDate',
  'Mon, 02 Jan 2006 15:04:05 GMT',
  'text',
  '__proto__',
  'constructor',
  '<div>',
  '</div>',
);
const document = fc.array(piece, { maxLength: 80 }).map((pieces) => pieces.join(''));
/** Most interesting documents start like a feed. */
const feedish = fc
  .tuple(fc.constantFrom('<rss version="2.0"><channel>', '<feed xmlns="http://www.w3.org/2005/Atom">', '<rdf:RDF>', ''), document)
  .map(([head, body]) => head + body);

t.test('parseXml returns a tree (or none) or throws an Error on any arrangement of XML pieces', async (t) => {
  fc.assert(
    fc.property(feedish, (xml) => {
      try {
        const tree = parseXml(xml);
        return (tree === undefined || typeof tree.local === 'string') && Object.keys(Object.prototype).length === 0;
      } catch (error) {
        return error instanceof Error && !(error instanceof TypeError) && !(error instanceof RangeError);
      }
    }),
    { numRuns: 5_000 },
  );
  t.pass('5000 generated documents');
});

t.test('parseFeed returns a feed or refuses with not_a_feed, nothing else, on any arrangement of XML pieces', async (t) => {
  fc.assert(
    fc.property(feedish, (xml) => {
      try {
        const feed = parseFeed(xml, { url: 'https://example.org/feed.xml' });
        return (
          Array.isArray(feed.items) && feed.items.every((item) => typeof item.url === 'string' && typeof item.description_html === 'string')
        );
      } catch (error) {
        return error instanceof FeedmillError && error.code === 'not_a_feed';
      }
    }),
    { numRuns: 5_000 },
  );
  t.pass('5000 generated documents');
});

/** JSON Feed documents with every field of any JSON type, as a hostile or careless server sends them. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }),
);
const jsonItem = fc.dictionary(
  fc.constantFrom(
    'id',
    'url',
    'external_url',
    'title',
    'content_html',
    'content_text',
    'summary',
    'image',
    'banner_image',
    'date_published',
    'date_modified',
    'author',
    'authors',
    'tags',
    'attachments',
    '_ext',
    '__proto__',
  ),
  anyValue,
);
const jsonFeed = fc.record({
  version: fc.constantFrom('https://jsonfeed.org/version/1', 'https://jsonfeed.org/version/1.1', 'x'),
  title: anyValue,
  home_page_url: anyValue,
  icon: anyValue,
  items: fc.oneof(fc.array(fc.oneof(jsonItem, anyValue), { maxLength: 4 }), anyValue),
});

t.test('parseFeed returns a feed or refuses with not_a_feed on a JSON Feed with any field of any type', async (t) => {
  fc.assert(
    fc.property(jsonFeed, (feed) => {
      try {
        const parsed = parseFeed(JSON.stringify(feed), { url: 'https://example.org/feed.json' });
        return Array.isArray(parsed.items) && parsed.items.every((item) => typeof item.url === 'string' && typeof item.title === 'string');
      } catch (error) {
        return error instanceof FeedmillError && error.code === 'not_a_feed';
      }
    }),
    { numRuns: 5_000 },
  );
  t.pass('5000 generated documents');
});
