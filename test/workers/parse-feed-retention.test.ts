import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { parseFeed } from '../../workers/parse-feed.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * A feed of `count` items whose text is not Latin-1, so V8 holds the decoded document at two bytes a
 * character. Each edition declares a namespace URI and uses a Dublin Core term name of its own: the
 * parser caches names and URIs it has met, and a cache entry that is a view into the document would
 * keep that document alive.
 */
function bigFeed(count: number, edition: string): Buffer {
  const items = Array.from(
    { length: count },
    (_, n) =>
      `<item><title>Story ${edition}${n} \u2014 “quoted”</title><link>https://example.org/story/${n}/a-long-enough-slug</link>` +
      `<guid>urn:example:story:${n}</guid><category>Category number ${n % 7}</category>` +
      `<dc:creator>Reporter number ${n % 5}</dc:creator><ed:note>n</ed:note><dcterms:edition${edition}Remark>r</dcterms:edition${edition}Remark>` +
      `<description><![CDATA[<p>Paragraph \u2019${'x'.repeat(400)}\u2019 <a href="/more/${n}">more</a></p>]]></description></item>`,
  );
  const namespaces = `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:ed="https://example.org/ns/edition-${edition}/terms"`;
  return Buffer.from(
    `<rss version="2.0" ${namespaces}><channel><title>The channel of edition ${edition}</title>${items.join('')}</channel></rss>`,
  );
}

t.test('what parseFeed returns holds no view into the decoded document, so keeping one item keeps only that item', async (t) => {
  // Each document is about 4 MB, 8 MB once decoded. The first parse also compiles and caches for
  // good (parsers, decode tables), so growth is measured from the first kept result to the third.
  const documents = ['a', 'b', 'c'].map((edition) => bigFeed(8000, edition));
  const kept: { title: string; item: unknown }[] = [];
  const heapAfter: number[] = [];
  for (const bytes of documents) {
    const feed = parseFeed(bytes, { url: 'https://example.org/feed.xml' });
    kept.push({ title: feed.title, item: feed.items[1234] });
    gc();
    heapAfter.push(process.memoryUsage().heapUsed);
  }
  const grown = (heapAfter[2] ?? 0) - (heapAfter[0] ?? 0);
  t.same(
    kept.map((entry) => entry.title),
    ['The channel of edition a', 'The channel of edition b', 'The channel of edition c'],
  );
  t.ok(
    grown < 2 * 1024 * 1024,
    `two more kept items grew the heap by ${(grown / 1024 / 1024).toFixed(1)} MB (two retained documents would be about 16 MB)`,
  );
});
