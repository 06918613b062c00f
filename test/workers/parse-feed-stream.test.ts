import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { ParsedFeed } from '../../src/domain/item.js';
import { parseFeed } from '../../workers/parse-feed.js';
import { readAtom } from '../../workers/parse-feed/atom.js';
import { decodeBody } from '../../workers/parse-feed/decode.js';
import { ItemStream } from '../../workers/parse-feed/item-stream.js';
import { readRss } from '../../workers/parse-feed/rss.js';
import { parseXml, type XmlNode } from '../../workers/parse-feed/xml-tree.js';
import { sharedCorpus } from '../fixtures/corpus.js';

const corpus = sharedCorpus('feeds');
const url = 'https://example.org/feeds/feed.xml';

/** The whole tree first, then the readers: how parseFeed read every document before items were streamed. */
function readUnstreamed(text: string): ParsedFeed | undefined {
  const markup = text.indexOf('<');
  const root = markup === -1 ? undefined : parseXml(text.slice(markup));
  if (root === undefined) return undefined;
  const local = root.local.toLowerCase();
  if (local === 'rss' || local === 'rdf') return readRss(root, url);
  return local === 'feed' ? readAtom(root, url) : undefined;
}

function streamed(xml: string): { stream: ItemStream; root: XmlNode | undefined } {
  const stream = new ItemStream(url);
  return { stream, root: parseXml(xml, stream.onClose) };
}

t.test('items and entries are read as their element closes, and the element is released', async (t) => {
  const rss = streamed(
    '<rss><channel xml:base="/c/"><title>T</title><item><title>one</title><link>1</link></item><item><title>two</title></item></channel></rss>',
  );
  t.equal(rss.stream.read.size, 2, 'both items were read during the parse');
  const [first] = [...rss.stream.read.values()];
  t.equal(first?.url, 'https://example.org/c/1', "the channel's xml:base applies");
  const channel = rss.root?.children[0];
  t.same(
    channel?.children.map((child) => [child.local, child.children.length]),
    [
      ['title', 0],
      ['item', 0],
      ['item', 0],
    ],
    'the item elements stay in place, emptied',
  );

  const atom = streamed('<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>e</title></entry></feed>');
  t.equal(atom.stream.read.size, 1);

  const early = streamed(
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><item><title>before</title></item><channel><title>c</title></channel><item><title>after</title></item></rdf:RDF>',
  );
  t.same(
    [...early.stream.read.values()].map((item) => item.title),
    ['after'],
    'an RDF item before its channel waits for the reader',
  );
  t.same(
    early.root && readRss(early.root, url, early.stream.read).items.map((item) => item.title),
    ['before', 'after'],
    'the reader keeps document order',
  );

  const second = streamed('<rss><channel><item><title>a</title></item></channel><channel><item><title>b</title></item></channel></rss>');
  t.same(
    second.root && readRss(second.root, url, second.stream.read).items.map((item) => item.title),
    ['a'],
    'only the first channel is read, as before',
  );
});

t.test(
  'streaming gives what reading the whole tree gave, on every XML document of the corpus',
  { skip: 'skip' in corpus && corpus.skip },
  async (t) => {
    if (!('dir' in corpus)) return;
    const dir = join(corpus.dir, 'feeds');
    let compared = 0;
    for (const name of readdirSync(dir).filter((file) => /\.(xml|rss|atom|rdf)$/.test(file))) {
      const body = readFileSync(join(dir, name));
      let expected: ParsedFeed | undefined;
      try {
        expected = readUnstreamed(decodeBody(body, undefined));
      } catch {
        continue;
      }
      if (expected === undefined) continue;
      const actual = parseFeed(body, { url });
      if (JSON.stringify(actual.items) !== JSON.stringify(expected.items)) t.fail(`${name}: the streamed items differ`);
      compared++;
    }
    t.ok(compared > 500, `${compared} documents read both ways gave the same items`);
  },
);
